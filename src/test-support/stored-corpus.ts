// A corpus record and a ready corpus in a store, for tests and benchmarks that start from documents.
import { Bm25Index, DEFAULT_ANALYZER_OPTIONS, type CorpusDocument, type CorpusRecord, type CorpusStore } from '../core/index.ts';

/** An `ingesting` corpus record with nothing in it yet. */
export function corpusRecord(id: string, overrides: Partial<CorpusRecord> = {}): CorpusRecord {
  return {
    id,
    name: `corpus ${id}`,
    createdAt: 1000,
    status: 'ingesting',
    documentCount: 0,
    queryCount: 0,
    qrelCount: 0,
    questionCount: 0,
    analyzer: { ...DEFAULT_ANALYZER_OPTIONS },
    sources: ['corpus.jsonl'],
    bytes: 10,
    issues: [],
    issueCount: 0,
    ...overrides,
  };
}

/** Stores `documents` as a ready corpus `id` (no queries or qrels), with its BM25 index. */
export async function storeCorpus(store: CorpusStore, id: string, documents: CorpusDocument[]): Promise<void> {
  await store.beginCorpus(corpusRecord(id, { name: id }));
  await store.putBatch(id, { documents, queries: [], qrels: [] });
  const index = Bm25Index.create();
  index.addAll(documents);
  await store.commitCorpus(id, {
    index: index.serialize(),
    documentCount: documents.length,
    queryCount: 0,
    qrelCount: 0,
    questionCount: 0,
    issues: [],
    issueCount: 0,
  });
}
