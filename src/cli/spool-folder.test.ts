import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeSpoolFile, openSpoolFile, readFully, writeFully, type SpoolFile } from './spool-folder.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-spool-folder-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// A file whose positional writes and reads move at most `step` bytes per call, as the OS may.
async function choppy(file: string, step: number): Promise<{ handle: SpoolFile; calls: { writes: number; reads: number } }> {
  const real = await fsp.open(file, 'w+');
  const calls = { writes: 0, reads: 0 };
  const handle = {
    write: (async (buffer: Buffer, offset: number, length: number, position: number) => {
      calls.writes++;
      return real.write(buffer, offset, Math.min(length, step), position);
    }) as SpoolFile['write'],
    read: (async (buffer: Buffer, offset: number, length: number, position: number) => {
      calls.reads++;
      return real.read(buffer, offset, Math.min(length, step), position);
    }) as SpoolFile['read'],
    close: () => real.close(),
  };
  return { handle, calls };
}

describe('spool files', () => {
  it('writeFully and readFully go on until every byte has moved', async () => {
    const { handle, calls } = await choppy(path.join(dir, 'choppy'), 7);
    const bytes = Buffer.from(Array.from({ length: 100 }, (_, i) => (i * 37) % 256));
    await writeFully(handle, bytes.subarray(0, 60), 0);
    await writeFully(handle, bytes.subarray(60), 60);
    expect(calls.writes).toBe(Math.ceil(60 / 7) + Math.ceil(40 / 7));
    const back = Buffer.alloc(50);
    await readFully(handle, back, 25, 'vector', 'x.f32');
    expect([...back]).toEqual([...bytes.subarray(25, 75)]);
    expect(calls.reads).toBe(Math.ceil(50 / 7));
    await handle.close();
  });

  it('readFully past the end names the spool, its path and the byte where the file ended', async () => {
    const { handle, file, folder } = await openSpoolFile('document', 'docs.jsonl', { dir });
    await writeFully(handle, Buffer.from('0123456789'), 0);
    await expect(readFully(handle, Buffer.alloc(8), 5, 'document', file)).rejects.toThrow(`The document spool ${file} ends early (at byte 10)`);
    await closeSpoolFile(handle, folder);
    expect(fs.existsSync(folder)).toBe(false);
  });
});
