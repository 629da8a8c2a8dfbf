import { StringTableLookup } from '../bm25/index.ts';
import type { CorpusDocument, CorpusQuery, Qrel } from '../corpus/index.ts';
import type { CorpusCommit, CorpusRecord } from './corpus-store.ts';
import type { DocumentSpool } from './document-spool.ts';
import { MemoryCorpusStore } from './memory-corpus-store.ts';

interface SpooledCorpus {
  spool: DocumentSpool;
  /** Id → row, over the committed index's id table (built at commit). */
  rows?: StringTableLookup;
}

/**
 * A memory store that keeps queries, qrels and the index in memory and writes the documents to a spool (one per
 * corpus), so that a corpus larger than memory can be searched and its hits read back in a few reads each. The
 * loader adds every batch to the spool and to the index in the same order, so spool row = index document number,
 * and ids are looked up in the index's own id table rather than in a second copy of them.
 */
export class SpooledCorpusStore extends MemoryCorpusStore {
  private readonly spooled = new Map<string, SpooledCorpus>();

  constructor(private readonly openSpool: () => Promise<DocumentSpool>) {
    super();
  }

  override async beginCorpus(record: CorpusRecord): Promise<void> {
    await super.beginCorpus(record);
    try {
      this.spooled.set(record.id, { spool: await this.openSpool() });
    } catch (error) {
      await super.deleteCorpus(record.id);
      throw error;
    }
  }

  override async putBatch(corpusId: string, batch: { documents: CorpusDocument[]; queries: CorpusQuery[]; qrels: Qrel[] }): Promise<void> {
    const { spool } = this.spoolOf(corpusId);
    // Both are started before either is awaited: the spool hands out rows in call order.
    await Promise.all([super.putBatch(corpusId, { ...batch, documents: [] }), spool.append(batch.documents)]);
  }

  override async commitCorpus(corpusId: string, commit: CorpusCommit): Promise<void> {
    // Every document read back is checked against the id it was asked for (getDocuments), which is what would
    // catch an index and a spool filled in different orders.
    this.spoolOf(corpusId).rows = StringTableLookup.of(commit.index.compact.ids);
    await super.commitCorpus(corpusId, commit);
  }

  override async deleteCorpus(corpusId: string): Promise<void> {
    const corpus = this.spooled.get(corpusId);
    this.spooled.delete(corpusId);
    await super.deleteCorpus(corpusId);
    await corpus?.spool.close();
  }

  override async getDocuments(corpusId: string, ids: readonly string[]): Promise<Array<CorpusDocument | undefined>> {
    const corpus = this.spooled.get(corpusId);
    if (!corpus?.rows) return ids.map(() => undefined);
    const rows = ids.map((id) => corpus.rows!.indexOf(id));
    const distinct = [...new Set(rows.filter((row) => row >= 0))];
    const docs = await corpus.spool.read(distinct);
    const byRow = new Map(distinct.map((row, i) => [row, docs[i]!]));
    return rows.map((row, i) => {
      if (row < 0) return undefined;
      const doc = byRow.get(row)!;
      if (doc.id !== ids[i]) throw new Error(`The document spool is out of step with the index: row ${row} holds ${doc.id}, not ${ids[i]}.`);
      return doc;
    });
  }

  /** Pages in load order (the spool's order); `after` is the id the previous page ended with. */
  override async listDocuments(corpusId: string, options: { after?: string; limit: number }): Promise<CorpusDocument[]> {
    const corpus = this.spooled.get(corpusId);
    if (!corpus?.rows) return [];
    const start = options.after === undefined ? 0 : corpus.rows.indexOf(options.after) + 1;
    // An unknown `after` gives an empty page rather than starting over.
    if (options.after !== undefined && start === 0) return [];
    const end = Math.min(corpus.spool.count, start + Math.max(0, options.limit));
    return corpus.spool.read(Array.from({ length: Math.max(0, end - start) }, (_, i) => start + i));
  }

  /** Closes every spool (removing its file); the store holds no documents afterwards. */
  async close(): Promise<void> {
    const corpora = [...this.spooled.keys()];
    await Promise.all(corpora.map((id) => this.deleteCorpus(id)));
  }

  private spoolOf(corpusId: string): SpooledCorpus {
    const corpus = this.spooled.get(corpusId);
    if (!corpus) throw new Error(`No corpus ${corpusId}`);
    return corpus;
  }
}
