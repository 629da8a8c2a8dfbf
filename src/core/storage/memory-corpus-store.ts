import type { SerializedBm25Index } from '../bm25/index.ts';
import type { CorpusDocument, CorpusQuery, Qrel } from '../corpus/index.ts';
import type { CorpusCommit, CorpusRecord, CorpusStore } from './corpus-store.ts';

interface MemoryCorpus {
  record: CorpusRecord;
  documents: Map<string, CorpusDocument>;
  queries: Map<string, CorpusQuery>;
  qrels: Map<string, Qrel>;
  index?: SerializedBm25Index;
}

/** CorpusStore in memory: for the CLI and for tests. */
export class MemoryCorpusStore implements CorpusStore {
  private readonly corpora = new Map<string, MemoryCorpus>();

  async listCorpora(): Promise<CorpusRecord[]> {
    return [...this.corpora.values()]
      .map((c) => c.record)
      .filter((r) => r.status === 'ready')
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  async listIncomplete(): Promise<CorpusRecord[]> {
    return [...this.corpora.values()].map((c) => c.record).filter((r) => r.status !== 'ready');
  }

  async getCorpus(id: string): Promise<CorpusRecord | undefined> {
    return this.corpora.get(id)?.record;
  }

  async beginCorpus(record: CorpusRecord): Promise<void> {
    if (this.corpora.has(record.id)) throw new Error(`A corpus with id ${record.id} already exists`);
    this.corpora.set(record.id, {
      record: { ...record, status: 'ingesting' },
      documents: new Map(),
      queries: new Map(),
      qrels: new Map(),
    });
  }

  async putBatch(corpusId: string, batch: { documents: CorpusDocument[]; queries: CorpusQuery[]; qrels: Qrel[] }): Promise<void> {
    const corpus = this.require(corpusId);
    for (const d of batch.documents) corpus.documents.set(d.id, d);
    for (const q of batch.queries) corpus.queries.set(q.id, q);
    for (const r of batch.qrels) corpus.qrels.set(`${r.queryId}\u0000${r.docId}`, r);
  }

  async commitCorpus(corpusId: string, commit: CorpusCommit): Promise<void> {
    const corpus = this.require(corpusId);
    const { index, ...counts } = commit;
    corpus.index = index;
    corpus.record = { ...corpus.record, ...counts, status: 'ready' };
  }

  async deleteCorpus(corpusId: string): Promise<void> {
    this.corpora.delete(corpusId);
  }

  async renameCorpus(corpusId: string, name: string): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed) throw new Error('A corpus name cannot be empty');
    const corpus = this.require(corpusId);
    corpus.record = { ...corpus.record, name: trimmed };
  }

  async getDocuments(corpusId: string, ids: readonly string[]): Promise<Array<CorpusDocument | undefined>> {
    const corpus = this.corpora.get(corpusId);
    return ids.map((id) => corpus?.documents.get(id));
  }

  async listDocuments(corpusId: string, options: { after?: string; limit: number }): Promise<CorpusDocument[]> {
    const ids = [...(this.corpora.get(corpusId)?.documents.keys() ?? [])].sort();
    const start = options.after === undefined ? 0 : ids.findIndex((id) => id > options.after!);
    if (start < 0) return [];
    return ids.slice(start, start + options.limit).map((id) => this.corpora.get(corpusId)!.documents.get(id)!);
  }

  async getQueries(corpusId: string): Promise<CorpusQuery[]> {
    return [...(this.corpora.get(corpusId)?.queries.values() ?? [])];
  }

  async getQrels(corpusId: string): Promise<Qrel[]> {
    return [...(this.corpora.get(corpusId)?.qrels.values() ?? [])];
  }

  async getBm25Index(corpusId: string): Promise<SerializedBm25Index | undefined> {
    return this.corpora.get(corpusId)?.index;
  }

  private require(corpusId: string): MemoryCorpus {
    const corpus = this.corpora.get(corpusId);
    if (!corpus) throw new Error(`No corpus ${corpusId}`);
    return corpus;
  }
}
