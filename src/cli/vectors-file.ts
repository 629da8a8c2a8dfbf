// A vectors file for `dsw serve --vectors`: the pooled vectors of one embedding set, so a restart over the same
// dataset and model reads them instead of embedding again. Layout: "DSWV1\n", a uint32 (LE) header length, the
// header JSON {set, dataset, chunks: [{index, ids}]}, then every chunk's float32 rows in order.
import fs from 'node:fs';
import type { CorpusRecord, EmbeddingSetRecord, VectorStore } from '../core/index.ts';

const MAGIC = Buffer.from('DSWV1\n');

/** What the vectors were made from: a file made over other data is never used. */
function datasetIdentity(corpus: CorpusRecord): string {
  return JSON.stringify({ documents: corpus.documentCount, bytes: corpus.bytes, sources: corpus.sources });
}

/**
 * Fills `vectors` with the file's set for `corpus` (re-keyed to its id). Returns the set, or null with the reason
 * when the file is missing, unreadable or made from other data.
 */
export function readVectorsFile(file: string, corpus: CorpusRecord, vectors: VectorStore): Promise<{ set: EmbeddingSetRecord } | { reason: string }> {
  return (async () => {
    if (!fs.existsSync(file)) return { reason: `${file} does not exist yet` };
    const bytes = fs.readFileSync(file);
    if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) return { reason: `${file} is not a workbench vectors file` };
    const headerLength = bytes.readUInt32LE(MAGIC.length);
    const header = JSON.parse(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength).toString('utf8')) as {
      set: EmbeddingSetRecord;
      dataset: string;
      chunks: { index: number; ids: string[] }[];
    };
    if (header.dataset !== datasetIdentity(corpus)) return { reason: `${file} was made from other data (documents, sizes or files differ)` };
    const set = { ...header.set, corpusId: corpus.id, tokens: false };
    await vectors.createSet({ ...set, rowsDone: 0, lastId: null, complete: false, bytes: 0 });
    let offset = MAGIC.length + 4 + headerLength;
    const dims = set.model.dimensions;
    let rows = 0;
    for (const chunk of header.chunks) {
      const length = chunk.ids.length * dims * 4;
      const values = new Float32Array(bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length));
      offset += length;
      rows += chunk.ids.length;
      await vectors.writeChunk(corpus.id, set.modelKey, { index: chunk.index, ids: chunk.ids, vectors: values }, [], {
        rowsDone: rows,
        lastId: chunk.ids.at(-1) ?? null!,
        complete: rows === set.rowsDone,
        bytesAdded: length,
      });
    }
    return { set: (await vectors.getSet(corpus.id, set.modelKey))! };
  })();
}

/** Writes a complete set's pooled vectors to `file`. */
export async function writeVectorsFile(file: string, corpus: CorpusRecord, vectors: VectorStore, set: EmbeddingSetRecord): Promise<void> {
  const chunks = await vectors.getChunks(set.corpusId, set.modelKey);
  const header = Buffer.from(JSON.stringify({ set, dataset: datasetIdentity(corpus), chunks: chunks.map((c) => ({ index: c.index, ids: c.ids })) }), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const tmp = `${file}.partial`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, MAGIC);
    fs.writeSync(fd, length);
    fs.writeSync(fd, header);
    for (const chunk of chunks) fs.writeSync(fd, new Uint8Array(chunk.vectors.buffer, chunk.vectors.byteOffset, chunk.vectors.byteLength));
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}
