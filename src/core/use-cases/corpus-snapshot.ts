// Exporting a corpus with everything computed for it (BM25 index, embedding sets) as one snapshot file, and
// importing one in another browser without re-indexing or re-embedding. Import stages the corpus as `ingesting`
// (never listed) and commits it only after the whole file has been read and checked.
import {
  addDocument, SetChecksum, readSnapshot, SnapshotError, SnapshotWriter, type CorpusDocument, type CorpusQuery,
  type Qrel,
} from '../corpus/index.ts';
import type { SerializedBm25Index } from '../bm25/index.ts';
import { newCorpusId } from '../loader/index.ts';
import type { CorpusRecord, CorpusStore, EmbeddingSetRecord, TokenBatch, VectorChunk, VectorStore } from '../storage/index.ts';

const PAGE = 500;

/** Progress of an export (documents and vector chunks written) or an import (bytes read). */
export interface SnapshotProgress {
  phase: 'documents' | 'queries' | 'index' | 'embeddings' | 'reading' | 'saving';
  done: number;
  total: number;
}

export interface SnapshotOptions {
  onProgress?(progress: SnapshotProgress): void;
  signal?: AbortSignal;
}

/**
 * The snapshot of a stored corpus, as chunks produced on demand (write them to a file as they come: the whole
 * file never exists in memory). Sections: corpus, documents, queries, qrels, bm25, embeddings.
 */
export async function* exportCorpusSnapshot(corpusId: string, stores: { corpora: CorpusStore; vectors: VectorStore }, options: SnapshotOptions = {}): AsyncGenerator<Uint8Array> {
  const { corpora, vectors } = stores;
  const { signal, onProgress } = options;
  const corpus = await corpora.getCorpus(corpusId);
  if (!corpus || corpus.status !== 'ready') throw new Error('This corpus is no longer stored: it was deleted, perhaps in another tab.');
  const w = new SnapshotWriter();
  yield* w.start();
  yield* w.begin('corpus');
  yield* w.item(corpus);
  yield* w.end();

  yield* w.begin('documents');
  let after: string | undefined;
  let done = 0;
  for (;;) {
    signal?.throwIfAborted();
    const page = await corpora.listDocuments(corpus.id, { after, limit: PAGE });
    if (page.length === 0) break;
    yield* w.item(page);
    done += page.length;
    after = page.at(-1)!.id;
    onProgress?.({ phase: 'documents', done, total: corpus.documentCount });
  }
  yield* w.end();

  onProgress?.({ phase: 'queries', done: 0, total: 1 });
  yield* w.begin('queries');
  yield* w.item(await corpora.getQueries(corpus.id));
  yield* w.end();
  yield* w.begin('qrels');
  yield* w.item(await corpora.getQrels(corpus.id));
  yield* w.end();

  onProgress?.({ phase: 'index', done: 0, total: 1 });
  const index = await corpora.getBm25Index(corpus.id);
  if (!index) throw new Error(`The BM25 index of “${corpus.name}” is missing; load the corpus again.`);
  yield* w.begin('bm25');
  yield* w.item(index);
  yield* w.end();

  yield* w.begin('embeddings');
  const sets = (await vectors.listSets(corpus.id)).filter((s) => s.rowsDone > 0);
  const totalChunks = sets.reduce((n, s) => n + Math.ceil(s.rowsDone / s.chunkRows), 0);
  let chunksDone = 0;
  for (const set of sets) {
    yield* w.item({ kind: 'set', set });
    const tokens = set.tokens ? await vectors.getTokenBatches(corpus.id, set.modelKey) : [];
    for (const chunk of await vectors.getChunks(corpus.id, set.modelKey)) {
      signal?.throwIfAborted();
      const start = chunk.index * set.chunkRows;
      const mine = tokens.filter((t) => t.startRow >= start && t.startRow < start + chunk.ids.length);
      yield* w.item({ kind: 'chunk', modelKey: set.modelKey, chunk, tokens: mine });
      onProgress?.({ phase: 'embeddings', done: ++chunksDone, total: totalChunks });
    }
  }
  yield* w.end();
  yield* w.finish();
}

/**
 * Imports a snapshot stream as a new corpus (a new id; the name as exported). Every section is checked before the
 * corpus is committed; on any error or cancel everything written for it is removed and other corpora are untouched.
 */
export async function importCorpusSnapshot(
  stream: ReadableStream<Uint8Array>,
  size: number,
  stores: { corpora: CorpusStore; vectors: VectorStore },
  options: SnapshotOptions = {},
): Promise<CorpusRecord> {
  const { corpora, vectors } = stores;
  const { signal, onProgress } = options;
  const id = newCorpusId();
  let record: CorpusRecord | null = null;
  let index: SerializedBm25Index | null = null;
  const checksum = new SetChecksum();
  let documents = 0;
  let queries = 0;
  let qrels = 0;
  let questions = 0;
  const sets = new Map<string, EmbeddingSetRecord>();
  const progressOf = new Map<string, { rowsDone: number }>();
  try {
    for await (const { section, value } of readSnapshot(stream, (bytes) => onProgress?.({ phase: 'reading', done: bytes, total: size }))) {
      signal?.throwIfAborted();
      if (section === 'corpus') {
        const exported = value as CorpusRecord;
        if (!exported || typeof exported.name !== 'string' || typeof exported.documentCount !== 'number') throw new SnapshotError('The snapshot is damaged: its corpus record is not readable.');
        record = { ...exported, id, status: 'ingesting', createdAt: Date.now() };
        await corpora.beginCorpus(record);
      } else if (!record) {
        throw new SnapshotError('The snapshot is damaged: it does not start with its corpus record.');
      } else if (section === 'documents') {
        const page = value as CorpusDocument[];
        for (const doc of page) addDocument(checksum, doc);
        documents += page.length;
        await corpora.putBatch(id, { documents: page, queries: [], qrels: [] });
      } else if (section === 'queries') {
        const list = value as CorpusQuery[];
        queries += list.length;
        questions += list.filter((q) => q.answers && q.answers.length > 0).length;
        await corpora.putBatch(id, { documents: [], queries: list, qrels: [] });
      } else if (section === 'qrels') {
        const list = value as Qrel[];
        qrels += list.length;
        await corpora.putBatch(id, { documents: [], queries: [], qrels: list });
      } else if (section === 'bm25') {
        index = value as SerializedBm25Index;
      } else if (section === 'embeddings') {
        const item = value as { kind: 'set'; set: EmbeddingSetRecord } | { kind: 'chunk'; modelKey: string; chunk: VectorChunk; tokens: TokenBatch[] };
        if (item.kind === 'set') {
          const set = item.set;
          sets.set(set.modelKey, set);
          progressOf.set(set.modelKey, { rowsDone: 0 });
          await vectors.createSet({ ...set, corpusId: id, rowsDone: 0, lastId: null, complete: false, bytes: 0 });
        } else {
          const set = sets.get(item.modelKey);
          if (!set) throw new SnapshotError('The snapshot is damaged: vectors of an embedding set it does not describe.');
          const rowsDone = item.chunk.index * set.chunkRows + item.chunk.ids.length;
          const bytesAdded = item.chunk.vectors.byteLength + item.tokens.reduce((n, t) => n + t.vectors.byteLength + t.counts.byteLength, 0);
          await vectors.writeChunk(id, set.modelKey, item.chunk, item.tokens, { rowsDone, lastId: item.chunk.ids.at(-1)!, complete: set.complete && rowsDone === set.rowsDone, bytesAdded });
          progressOf.get(set.modelKey)!.rowsDone = rowsDone;
        }
      }
    }
    if (!record || !index) throw new SnapshotError('The snapshot is damaged: it has no corpus or no BM25 index.');
    if (documents !== record.documentCount) throw new SnapshotError(`The snapshot is damaged: it holds ${documents} documents, its record says ${record.documentCount}.`);
    const computed = checksum.value();
    if (record.checksum && computed !== record.checksum) throw new SnapshotError('The snapshot is damaged: its documents do not match the corpus checksum recorded with them.');
    for (const [key, set] of sets) {
      if (progressOf.get(key)!.rowsDone !== set.rowsDone) throw new SnapshotError(`The snapshot is damaged: the embedding set of ${set.model.modelId} is missing vectors.`);
    }
    signal?.throwIfAborted();
    onProgress?.({ phase: 'saving', done: size, total: size });
    const counts = { documentCount: documents, queryCount: queries, qrelCount: qrels, questionCount: questions, issues: record.issues ?? [], issueCount: record.issueCount ?? 0, checksum: computed };
    await corpora.commitCorpus(id, { ...counts, index });
    return { ...record, ...counts, status: 'ready' };
  } catch (error) {
    await vectors.deleteCorpusSets(id).catch(() => undefined);
    await corpora.deleteCorpus(id).catch(() => undefined);
    throw error;
  }
}
