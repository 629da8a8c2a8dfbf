// Embedded corpora kept on disk between CLI runs (`--vector-cache <dir>`): the bench runs dense, fusion and GQR
// over the same corpus and model, and embedding npl (11k documents) with MiniLM takes minutes on two cores.
// A cache file is keyed by the model's files (their bytes), the vector settings and the corpus's texts, so a
// changed model, setting or corpus is embedded again. Pooled vectors only; token-level sets are not cached.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { documentText, type EmbeddingProgressUpdate, type EmbeddingSetRecord, type MemoryVectorStore, type ModelFileHash } from '../core/index.ts';
import type { LoadedDataset } from './load-dataset.ts';

/** One digest of a model's files (their paths and SHA-256s, as recorded on runs). */
export function modelFilesDigest(files: readonly ModelFileHash[]): string {
  const hash = crypto.createHash('sha256');
  for (const f of files) hash.update(`${f.path}\0${f.sha256}\0`);
  return hash.digest('hex');
}

/** Hash of a stored corpus's documents as they are embedded (id and text, in id order). */
export async function corpusTextHash(dataset: LoadedDataset): Promise<string> {
  const hash = crypto.createHash('sha256');
  let after: string | undefined;
  for (;;) {
    const page = await dataset.store.listDocuments(dataset.corpus.id, { after, limit: 4096 });
    if (page.length === 0) break;
    for (const doc of page) hash.update(doc.id).update('\0').update(documentText(doc)).update('\0');
    after = page[page.length - 1]!.id;
  }
  return hash.digest('hex');
}

/** The cache file's name for these parts. */
export function vectorCacheKey(parts: { modelHash: string; modelKey: string; maxTokens: number; corpusHash: string }): string {
  return crypto.createHash('sha256').update(JSON.stringify([parts.modelHash, parts.modelKey, parts.maxTokens, parts.corpusHash])).digest('hex').slice(0, 32);
}

interface CacheHeader {
  record: Omit<EmbeddingSetRecord, 'corpusId'>;
  chunks: Array<{ index: number; ids: string[] }>;
}

/** Puts a cached set into `vectors` under `corpusId`; false when there is no (readable) cache file. */
export async function restoreVectors(dir: string, key: string, corpusId: string, vectors: MemoryVectorStore): Promise<boolean> {
  const headerFile = path.join(dir, `${key}.json`);
  const dataFile = path.join(dir, `${key}.f32`);
  if (!fs.existsSync(headerFile) || !fs.existsSync(dataFile)) return false;
  const header = JSON.parse(fs.readFileSync(headerFile, 'utf8')) as CacheHeader;
  const bytes = fs.readFileSync(dataFile);
  const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const dims = header.record.model.dimensions;
  if (all.length !== header.chunks.reduce((n, c) => n + c.ids.length, 0) * dims) return false;
  await vectors.createSet({ ...header.record, corpusId, rowsDone: 0, complete: false, bytes: 0 });
  let offset = 0;
  for (const [i, chunk] of header.chunks.entries()) {
    const values = all.slice(offset, offset + chunk.ids.length * dims);
    offset += values.length;
    const last = i === header.chunks.length - 1;
    await vectors.writeChunk(corpusId, header.record.modelKey, { index: chunk.index, ids: chunk.ids, vectors: values }, [], {
      rowsDone: offset / dims,
      lastId: chunk.ids.at(-1) ?? "",
      complete: last,
      bytesAdded: values.byteLength,
    } satisfies EmbeddingProgressUpdate);
  }
  return true;
}

/** Writes a complete pooled set to the cache (atomically: a half-written file is never read). */
export async function saveVectors(dir: string, key: string, set: EmbeddingSetRecord, vectors: MemoryVectorStore): Promise<void> {
  const chunks = await vectors.getChunks(set.corpusId, set.modelKey);
  fs.mkdirSync(dir, { recursive: true });
  const { corpusId: _, ...record } = set;
  const header: CacheHeader = { record, chunks: chunks.map((c) => ({ index: c.index, ids: c.ids })) };
  const data = Buffer.concat(chunks.map((c) => Buffer.from(c.vectors.buffer, c.vectors.byteOffset, c.vectors.byteLength)));
  const tmp = `.${key}.${process.pid}`;
  fs.writeFileSync(path.join(dir, `${tmp}.f32`), data);
  fs.writeFileSync(path.join(dir, `${tmp}.json`), JSON.stringify(header));
  fs.renameSync(path.join(dir, `${tmp}.f32`), path.join(dir, `${key}.f32`));
  fs.renameSync(path.join(dir, `${tmp}.json`), path.join(dir, `${key}.json`));
}
