import { describe, expect, it } from 'vitest';
import { loadVectorMatrix } from '../dense/index.ts';
import { MemoryVectorStore } from '../storage/index.ts';
import { alignToCorpus, cosine, parseNpy, readVectorFiles, sampleRows, storeImportedVectors, VectorImportError, type VectorFile } from './vector-import.ts';

const text = (path: string, body: string): VectorFile => ({ path, bytes: new TextEncoder().encode(body) });

/** A .npy file as numpy.save writes it (version 1.0, header padded to 64 bytes). */
function npy(path: string, rows: number[][], descr: '<f4' | '<f8' = '<f4'): VectorFile {
  const dims = rows[0]!.length;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${rows.length}, ${dims}), }`;
  header += ' '.repeat(64 - ((10 + header.length + 1) % 64)) + '\n';
  const size = descr === '<f4' ? 4 : 8;
  const bytes = new Uint8Array(10 + header.length + rows.length * dims * size);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(bytes.buffer).setUint16(8, header.length, true);
  bytes.set(new TextEncoder().encode(header), 10);
  const view = new DataView(bytes.buffer, 10 + header.length);
  rows.flat().forEach((v, i) => (size === 4 ? view.setFloat32(i * 4, v, true) : view.setFloat64(i * 8, v, true)));
  return { path, bytes };
}

const corpusIds = ['d1', 'd2', 'd3'];
const rows = [
  [3, 4],
  [1, 0],
  [0, 2],
];

describe('readVectorFiles', () => {
  it('reads a .npy (float32 or float64) with an ids file, or alone in corpus order', () => {
    const withIds = readVectorFiles([npy('v/vectors.npy', [rows[2]!, rows[0]!, rows[1]!]), text('v/vectors.ids.txt', 'd3\nd1\nd2\n')]);
    expect(withIds).toMatchObject({ ids: ['d3', 'd1', 'd2'], rows: 3, dims: 2, source: 'vectors.npy with vectors.ids.txt' });
    const aligned = alignToCorpus(withIds, corpusIds).rows;
    expect([...aligned]).toEqual([0.6, 0.8, 1, 0, 0, 1].map((v) => Math.fround(v)));
    const plain = readVectorFiles([npy('e.npy', rows, '<f8')]);
    expect(plain.ids).toBeNull();
    expect([...alignToCorpus(plain, corpusIds).rows]).toEqual([...aligned]);
    expect(() => alignToCorpus(plain, ['d1', 'd2'])).toThrow('e.npy (rows in the corpus\'s order): 3 vectors for 2 documents');
  });

  it('reads {id, vector} lines, listing bad lines and unknown or repeated ids and keeping the rest', () => {
    const file = text(
      'vectors.jsonl',
      ['{"id": "d1", "vector": [3, 4]}', '{broken', '{"_id": "d2", "embedding": [1, 0]}', '{"id": "d9", "vector": [1, 1]}', '{"id": "d3", "vector": [0, 2, 5]}', '{"id": "d3", "vector": [0, 2]}', '{"id": "d1", "vector": [9, 9]}'].join('\n'),
    );
    const read = readVectorFiles([file]);
    const { rows: aligned, issues } = alignToCorpus(read, corpusIds);
    expect([...aligned.subarray(0, 2)]).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(issues).toEqual([
      { file: 'vectors.jsonl', line: 2, reason: 'not a JSON object' },
      { file: 'vectors.jsonl', line: 5, field: 'vector', reason: '3 numbers where the first vector has 2' },
      { file: 'vectors.jsonl', field: 'id', reason: 'id d9 is not a document of the corpus (row 3)' },
      { file: 'vectors.jsonl', field: 'id', reason: 'id d1 given again (row 5); the first is kept' },
    ]);
  });

  it('reads a dsw vector-cache pair and names the model it was made with', () => {
    const model = { modelId: 'tiny-bert', dtype: 'fp32', pooling: 'mean', dimensions: 2, prefixes: { query: '', passage: '' } };
    const header = text('cache/abc.json', JSON.stringify({ record: { model }, chunks: [{ index: 0, ids: ['d1', 'd2'] }, { index: 1, ids: ['d3'] }] }));
    const data: VectorFile = { path: 'cache/abc.f32', bytes: new Uint8Array(Float32Array.from(rows.flat()).buffer) };
    const read = readVectorFiles([header, data]);
    expect(read).toMatchObject({ ids: corpusIds, dims: 2, model, source: 'abc.json (dsw vector cache)' });
    expect(() => readVectorFiles([data])).toThrow('the vector cache\'s header (abc.json) is not among the picked files');
    expect(() => readVectorFiles([header, { ...data, bytes: data.bytes.subarray(4) }])).toThrow('abc.f32: 20 bytes for 3 vectors of 2 dimensions');
  });

  it('refuses what cannot be used, naming the file and the problem', () => {
    expect(() => readVectorFiles([text('notes.md', 'x')])).toThrow(VectorImportError);
    expect(() => readVectorFiles([text('bad.npy', 'hello world')])).toThrow('bad.npy: not a .npy file');
    const cut = npy('cut.npy', rows);
    expect(() => parseNpy({ ...cut, bytes: cut.bytes.subarray(0, cut.bytes.length - 4) })).toThrow('cut.npy: 20 bytes of data for shape (3, 2) of <f4');
    expect(() => readVectorFiles([npy('v.npy', rows), text('ids.txt', 'd1\nd2\n')])).toThrow('ids.txt holds 2 ids but v.npy holds 3 vectors');
    expect(() => alignToCorpus(readVectorFiles([npy('v.npy', rows.slice(0, 2)), text('ids.txt', 'd1\nd2')]), corpusIds)).toThrow('1 of the corpus\'s 3 documents have no vector (d3)');
    expect(() => alignToCorpus(readVectorFiles([npy('z.npy', [[0, 0], ...rows.slice(1)])]), corpusIds)).toThrow('the vector of d1 is all zeros');
  });
});

describe('storeImportedVectors', () => {
  it('stores a complete set in chunks that loads as the dense index, and refuses a second one of the same model', async () => {
    const store = new MemoryVectorStore();
    const model = { modelId: 'tiny-bert', dtype: 'fp32', pooling: 'mean' as const, dimensions: 2, prefixes: { query: '', passage: '' } };
    const { rows: aligned } = alignToCorpus(readVectorFiles([npy('v.npy', rows)]), corpusIds);
    const input = { corpusId: 'c', model, source: { location: 'app' as const, modelId: 'tiny-bert' }, maxTokens: 128, device: 'imported: v.npy', corpusIds, rows: aligned };
    const set = await storeImportedVectors(store, input);
    expect(set).toMatchObject({ complete: true, rowsDone: 3, totalRows: 3, bytes: 24, device: 'imported: v.npy' });
    const matrix = await loadVectorMatrix(store, set);
    expect(matrix.ids).toEqual(corpusIds);
    expect(cosine(matrix.vectorOf('d1')!, [3, 4])).toBeCloseTo(1, 6);
    await expect(storeImportedVectors(store, input)).rejects.toThrow('already has vectors of tiny-bert (fp32)');
  });
  it('samples rows spread over the corpus', () => {
    expect(sampleRows(3, 8)).toEqual([0, 1, 2]);
    expect(sampleRows(100, 4)).toEqual([12, 37, 62, 87]);
  });
});
