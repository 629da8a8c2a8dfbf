import type { CorpusDocument } from '../corpus/types.ts';
import { documentText } from '../embedding/document-text.ts';
import type { Retriever } from '../retrieval/retriever.ts';
import type { RetrievedPassage, TextRetriever } from './types.ts';

/** Looks documents up by id, aligned with `ids` (undefined for unknown ids); e.g. `CorpusStore.getDocuments`. */
export type DocumentLookup = (ids: readonly string[]) => Promise<Array<CorpusDocument | undefined>>;

/**
 * A workbench retrieval pipeline as the agents' search tool: the pipeline ranks, the corpus supplies the passage
 * texts (`title. text`, as the dense models see documents) and titles. Unknown ids keep an empty text.
 */
export function passageRetriever(retriever: Retriever, lookup: DocumentLookup): TextRetriever {
  return {
    async search(text: string, k: number, signal?: AbortSignal): Promise<RetrievedPassage[]> {
      const hits = await retriever.search(text, k, signal);
      signal?.throwIfAborted();
      const docs = await lookup(hits.map((h) => h.id));
      return hits.map((hit, i) => {
        const doc = docs[i];
        return doc ? { id: hit.id, score: hit.score, text: documentText(doc), title: doc.title } : { id: hit.id, score: hit.score, text: '' };
      });
    },
  };
}
