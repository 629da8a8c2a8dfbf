import { describe, expect, it } from 'vitest';
import { readSnapshot, SnapshotError, SnapshotWriter } from './snapshot-format.ts';

function write(): Uint8Array {
  const w = new SnapshotWriter();
  const chunks = [
    ...w.start(),
    ...w.begin('documents'),
    ...w.item({ id: 'd1', title: 'Ä', text: 'alpha' }),
    ...w.item({ id: 'd2', title: '', text: 'beta' }),
    ...w.end(),
    ...w.begin('vectors'),
    ...w.item({ index: 0, ids: ['d1', 'd2'], vectors: new Float32Array([0.1, -0.2, 0.3, 1e-30]), counts: new Int32Array([3, 4]) }),
    ...w.end(),
    ...w.finish(),
  ];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** A stream of `bytes` in small pieces, as a file is read. */
function streamOf(bytes: Uint8Array, piece = 7): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
}

async function readAll(bytes: Uint8Array) {
  const items = [];
  for await (const item of readSnapshot(streamOf(bytes))) items.push(item);
  return items;
}

describe('corpus snapshot format', () => {
  it('round-trips items and typed arrays bit for bit, read in small pieces', async () => {
    const items = await readAll(write());
    expect(items.map((i) => i.section)).toEqual(['documents', 'documents', 'vectors']);
    expect(items[0]!.value).toEqual({ id: 'd1', title: 'Ä', text: 'alpha' });
    const v = items[2]!.value as { vectors: Float32Array; counts: Int32Array; ids: string[] };
    expect(v.vectors).toBeInstanceOf(Float32Array);
    expect([...v.vectors]).toEqual([...new Float32Array([0.1, -0.2, 0.3, 1e-30])]);
    expect([...v.counts]).toEqual([3, 4]);
    expect(v.ids).toEqual(['d1', 'd2']);
  });

  it('refuses a foreign file, a truncated file and a damaged byte with words', async () => {
    const bytes = write();
    await expect(readAll(new TextEncoder().encode('{"format":"dsw-run"}'))).rejects.toThrow('not a workbench corpus snapshot');
    for (const cut of [12, 40, bytes.length - 30, bytes.length - 1]) {
      await expect(readAll(bytes.slice(0, cut))).rejects.toThrow(/truncated|damaged/);
    }
    // flip one byte inside the float data of the vectors section
    const damaged = bytes.slice();
    const at = bytes.length - 60;
    damaged[at] = damaged[at]! ^ 0x01;
    await expect(readAll(damaged)).rejects.toThrow(SnapshotError);
  });
});
