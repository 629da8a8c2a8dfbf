import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { encodeSafetensorsMatrix, halfToFloat, parseSafetensorsMatrix, readSafetensorsHeader } from './safetensors.ts';
import { alignToCorpus, readVectorFiles, VectorImportError, type VectorFile } from '../use-cases/index.ts';

// Written by Python's safetensors 0.8.0 (safetensors.numpy.save_file):
//   python-f32.safetensors: {"embeddings": float32 [[0,2,0],[3,4,0],[1,0,0.5]]}, metadata {"ids": json.dumps(["d3","d1","d2"])}
//   python-f16.safetensors: {"embeddings": the same as float16, "norms": float32 [3]}, no metadata
const fixture = (name: string): VectorFile => ({ path: `vectors/${name}`, bytes: new Uint8Array(fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name))) });
const text = (p: string, body: string): VectorFile => ({ path: p, bytes: new TextEncoder().encode(body) });

/** A file built by hand from the format's definition, independent of the writer under test. */
function handBuilt(header: unknown, data: Uint8Array, headerLength?: number): Uint8Array {
  const json = new TextEncoder().encode(typeof header === 'string' ? header : JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setUint32(0, headerLength ?? json.length, true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}
const f16 = (...bits: number[]) => new Uint8Array(new Uint16Array(bits).buffer);

describe('safetensors', () => {
  it("reads a file Python's safetensors wrote, with the ids in its header's metadata", () => {
    const read = readVectorFiles([fixture('python-f32.safetensors')]);
    expect(read).toMatchObject({ source: 'python-f32.safetensors (ids in its header)', ids: ['d3', 'd1', 'd2'], rows: 3, dims: 3 });
    const { rows } = alignToCorpus(read, ['d1', 'd2', 'd3']);
    expect([...rows]).toEqual([0.6, 0.8, 0, 1 / Math.sqrt(1.25), 0, 0.5 / Math.sqrt(1.25), 0, 1, 0].map(Math.fround));
  });

  it('reads float16 vectors among other tensors by the name "embeddings", ids from a file beside it or rows in corpus order', () => {
    const plain = readVectorFiles([fixture('python-f16.safetensors')]);
    expect(plain).toMatchObject({ ids: null, rows: 3, dims: 3, source: "python-f16.safetensors (rows in the corpus's order)" });
    expect([...plain.values]).toEqual([0, 2, 0, 3, 4, 0, 1, 0, 0.5]);
    const withIds = readVectorFiles([fixture('python-f16.safetensors'), text('vectors/ids.txt', 'd3\nd1\nd2\n')]);
    expect(withIds).toMatchObject({ ids: ['d3', 'd1', 'd2'], source: 'python-f16.safetensors with ids.txt' });
  });

  it('converts half and bfloat16 values exactly', () => {
    expect([0x3c00, 0xc000, 0x7bff, 0x0001, 0x8000, 0x3555].map(halfToFloat)).toEqual([1, -2, 65504, 2 ** -24, -0, 0.333251953125]);
    const bf16 = handBuilt({ v: { dtype: 'BF16', shape: [1, 3], data_offsets: [0, 6] } }, f16(0x3f80, 0xc040, 0x3eaa));
    expect([...parseSafetensorsMatrix(bf16, 'b.safetensors').values]).toEqual([1, -3, 0.33203125]);
    const half = handBuilt({ __metadata__: { ids: '["a"]' }, v: { dtype: 'F16', shape: [1, 2], data_offsets: [0, 4] } }, f16(0x3c00, 0xc000));
    expect(parseSafetensorsMatrix(half, 'h.safetensors')).toMatchObject({ rows: 1, dims: 2, metadata: { ids: '["a"]' } });
  });

  it('writes what it reads: an F32 tensor, string metadata, the header padded to 8 bytes', () => {
    const values = Float32Array.from({ length: 5 * 7 }, (_, i) => Math.sin(i) * 1e3);
    const bytes = encodeSafetensorsMatrix('embeddings', values, 5, 7, { ids: JSON.stringify(['a', 'b', 'c', 'd', 'e']), model: '{"x":1}' });
    const headerLength = new DataView(bytes.buffer).getUint32(0, true);
    expect(headerLength % 8).toBe(0);
    expect(readSafetensorsHeader(bytes, 'w.safetensors')).toMatchObject({ tensors: [{ name: 'embeddings', dtype: 'F32', shape: [5, 7], begin: 0, end: 140 }], dataStart: 8 + headerLength });
    const read = parseSafetensorsMatrix(bytes, 'w.safetensors');
    expect(read.values).toEqual(values);
    expect(read.metadata).toEqual({ ids: '["a","b","c","d","e"]', model: '{"x":1}' });
  });

  it('refuses damaged or unusable files with the file and the field named', () => {
    const ok = { dtype: 'F32', shape: [1, 2], data_offsets: [0, 8] };
    const data = new Uint8Array(8);
    const cases: [Uint8Array, string][] = [
      [new Uint8Array(5), 'x.safetensors: 5 bytes, too short'],
      [handBuilt({ v: ok }, data, 5000), 'x.safetensors: the header length (first 8 bytes) says 5000 bytes'],
      [handBuilt('{"v": ', data), 'x.safetensors: the header is not JSON'],
      [handBuilt('[1]', data), 'x.safetensors: the header is not a JSON object'],
      [handBuilt({ v: { ...ok, data_offsets: [0, 16] } }, data), 'x.safetensors: tensor "v": data_offsets [0, 16] run past the data (8 bytes)'],
      [handBuilt({ v: { ...ok, data_offsets: [4, 2] } }, data), 'x.safetensors: tensor "v": data_offsets must be [begin, end]'],
      [handBuilt({ v: { ...ok, shape: [1, 3] } }, data), 'x.safetensors: tensor "v": 8 bytes in data_offsets for shape [1, 3] of F32 (12 expected)'],
      [handBuilt({ v: { ...ok, shape: [2, -1] } }, data), 'x.safetensors: tensor "v": shape must be a list of whole numbers'],
      [handBuilt({ v: { ...ok, shape: [2] } }, data), 'x.safetensors: tensor "v": shape [2] is not [rows, dimensions]'],
      [handBuilt({ v: { dtype: 'I8', shape: [2, 4], data_offsets: [0, 8] } }, data), 'x.safetensors: tensor "v": dtype I8 is not read'],
      [handBuilt({ v: { dtype: 'F32', shape: [1, 1], data_offsets: [0, 4] }, w: { dtype: 'F32', shape: [1, 1], data_offsets: [2, 6] } }, data), 'tensors "v" and "w" overlap'],
      [handBuilt({ a: { dtype: 'F32', shape: [1, 1], data_offsets: [0, 4] }, b: { dtype: 'F32', shape: [1, 1], data_offsets: [4, 8] } }, data), 'it holds 2 tensors (a, b); name the vectors one "embeddings"'],
      [handBuilt({}, data), 'x.safetensors: the file holds no tensor'],
      [handBuilt({ __metadata__: { ids: ['a'] }, v: ok }, data), 'x.safetensors: __metadata__.ids must be a string'],
      [handBuilt({ __metadata__: { ids: '["a", "b"]' }, v: ok }, data), 'x.safetensors: __metadata__.ids holds 2 ids for 1 vectors (tensor "v")'],
      [handBuilt({ __metadata__: { ids: 'a,b' }, v: ok }, data), 'x.safetensors: __metadata__.ids is not JSON'],
      [handBuilt({ __metadata__: { ids: '{"a": 1}' }, v: ok }, data), 'x.safetensors: __metadata__.ids must be a JSON array'],
    ];
    for (const [bytes, message] of cases) {
      let error: unknown;
      try {
        readVectorFiles([{ path: 'dir/x.safetensors', bytes }]);
      } catch (e) {
        error = e;
      }
      expect(error, message).toBeInstanceOf(VectorImportError);
      expect((error as Error).message, message).toContain(message);
    }
    expect(() => readVectorFiles([fixture('python-f32.safetensors'), text('ids.txt', 'd1\nd2\nd3')])).toThrow(
      "ids.txt and python-f32.safetensors's __metadata__.ids differ at row 1 (d1 vs d3)",
    );
    expect(() => readVectorFiles([fixture('python-f32.safetensors'), text('ids.txt', 'd1\nd2')])).toThrow('ids.txt holds 2 ids but python-f32.safetensors holds 3 vectors');
    expect(() => readVectorFiles([fixture('python-f32.safetensors'), fixture('python-f16.safetensors')])).toThrow('Pick one .npy or .safetensors file, not 2');
  });
});
