import type { CorpusDocument, CorpusQuery, Qrel } from '../corpus/index.ts';
import { MemoryCorpusStore } from './memory-corpus-store.ts';

/** Finds documents by id somewhere else (for example by reading the dataset file again). */
export type DocumentFetcher = (ids: readonly string[]) => Promise<Array<CorpusDocument | undefined>>;

/**
 * A memory store that keeps queries, qrels and the index but not the documents, so that a corpus larger than
 * memory can be searched: documents are counted as they stream past and looked up through `fetchDocuments`.
 */
export class IndexOnlyCorpusStore extends MemoryCorpusStore {
  constructor(private readonly fetchDocuments: DocumentFetcher = async (ids) => ids.map(() => undefined)) {
    super();
  }

  override putBatch(corpusId: string, batch: { documents: CorpusDocument[]; queries: CorpusQuery[]; qrels: Qrel[] }): Promise<void> {
    return super.putBatch(corpusId, { ...batch, documents: [] });
  }

  override getDocuments(_corpusId: string, ids: readonly string[]): Promise<Array<CorpusDocument | undefined>> {
    return this.fetchDocuments(ids);
  }

  override async listDocuments(): Promise<CorpusDocument[]> {
    return [];
  }
}
