// The behaviour every CorpusStore must have, run against each implementation by its own test file.
import { describe, expect, it } from 'vitest';
import { Bm25Index, type CorpusStore } from '../core/index.ts';
import { corpusRecord } from './stored-corpus.ts';

const batch = {
  documents: [
    { id: 'b', title: 'B', text: 'second doc', metadata: { year: 2001 } },
    { id: 'a', title: 'A', text: 'first doc' },
  ],
  queries: [{ id: 'q1', text: 'first', answers: ['A'] }],
  qrels: [{ queryId: 'q1', docId: 'a', relevance: 2 }],
};

function commitFor(documents: typeof batch.documents) {
  const index = Bm25Index.create();
  index.addAll(documents);
  return { index: index.serialize(), documentCount: documents.length, queryCount: 1, qrelCount: 1, questionCount: 1, issues: [], issueCount: 0 };
}

export function describeCorpusStoreContract(name: string, makeStore: () => Promise<CorpusStore>): void {
  describe(`${name} (CorpusStore contract)`, () => {
    it('lists a corpus only once it is committed', async () => {
      const store = await makeStore();
      await store.beginCorpus(corpusRecord('c1'));
      await store.putBatch('c1', batch);
      expect(await store.listCorpora()).toEqual([]);
      expect((await store.listIncomplete()).map((c) => c.id)).toEqual(['c1']);
      await store.commitCorpus('c1', commitFor(batch.documents));
      const [listed] = await store.listCorpora();
      expect(listed).toMatchObject({ id: 'c1', status: 'ready', documentCount: 2, queryCount: 1, questionCount: 1 });
      expect(listed).not.toHaveProperty('index');
      expect(await store.listIncomplete()).toEqual([]);
    });

    it('returns stored documents, queries, qrels and the index', async () => {
      const store = await makeStore();
      await store.beginCorpus(corpusRecord('c1'));
      await store.putBatch('c1', batch);
      await store.commitCorpus('c1', commitFor(batch.documents));
      expect(await store.getDocuments('c1', ['a', 'missing', 'b'])).toEqual([
        { id: 'a', title: 'A', text: 'first doc' },
        undefined,
        { id: 'b', title: 'B', text: 'second doc', metadata: { year: 2001 } },
      ]);
      // Listed in an order of the store's own (ids or load order), each document once, a page continuing after an id.
      const listed = (await store.listDocuments('c1', { limit: 10 })).map((d) => d.id);
      expect([...listed].sort()).toEqual(['a', 'b']);
      expect((await store.listDocuments('c1', { limit: 1 })).map((d) => d.id)).toEqual([listed[0]]);
      expect((await store.listDocuments('c1', { after: listed[0], limit: 10 })).map((d) => d.id)).toEqual([listed[1]]);
      expect(await store.listDocuments('c1', { after: listed[1], limit: 10 })).toEqual([]);
      expect(await store.getQueries('c1')).toEqual([{ id: 'q1', text: 'first', answers: ['A'] }]);
      expect(await store.getQrels('c1')).toEqual([{ queryId: 'q1', docId: 'a', relevance: 2 }]);
      const index = Bm25Index.restore((await store.getBm25Index('c1'))!);
      expect(index.search('second', 5).map((h) => h.id)).toEqual(['b']);
    });

    it('keeps corpora apart, and deleting one leaves the others intact', async () => {
      const store = await makeStore();
      for (const id of ['c1', 'c2']) {
        await store.beginCorpus(corpusRecord(id, { createdAt: id === 'c1' ? 1 : 2 }));
        await store.putBatch(id, batch);
        await store.commitCorpus(id, commitFor(batch.documents));
      }
      expect((await store.listCorpora()).map((c) => c.id)).toEqual(['c2', 'c1']);
      await store.deleteCorpus('c2');
      expect((await store.listCorpora()).map((c) => c.id)).toEqual(['c1']);
      expect(await store.getDocuments('c2', ['a'])).toEqual([undefined]);
      expect(await store.getBm25Index('c2')).toBeUndefined();
      expect(await store.getQrels('c2')).toEqual([]);
      expect(await store.getDocuments('c1', ['a'])).toEqual([{ id: 'a', title: 'A', text: 'first doc' }]);
      expect(await store.getQueries('c1')).toHaveLength(1);
    });

    it('renames, refusing an empty name', async () => {
      const store = await makeStore();
      await store.beginCorpus(corpusRecord('c1'));
      await store.commitCorpus('c1', commitFor(batch.documents));
      await store.renameCorpus('c1', '  New name ');
      expect((await store.getCorpus('c1'))!.name).toBe('New name');
      await expect(store.renameCorpus('c1', '  ')).rejects.toThrow('A corpus name cannot be empty');
    });

    it('refuses to begin a corpus whose id exists', async () => {
      const store = await makeStore();
      await store.beginCorpus(corpusRecord('c1'));
      await expect(store.beginCorpus(corpusRecord('c1'))).rejects.toThrow('already exists');
    });
  });
}
