import type { CorpusDocument } from '../corpus/index.ts';
import { documentText } from '../embedding/index.ts';
import type { Retriever } from '../retrieval/index.ts';
import type { RetrievedPassage, TextRetriever } from './types.ts';

/** Looks documents up by id, aligned with `ids` (undefined for unknown ids); e.g. `CorpusStore.getDocuments`. */
export type DocumentLookup = (ids: readonly string[]) => Promise<Array<CorpusDocument | undefined>>;

/**
 * A workbench retrieval pipeline as the agents' search tool: the pipeline ranks, the corpus supplies the passage
 * texts (`title. text`, as the dense models see documents) and titles. Unknown ids keep an empty text. With
 * `passageChars`, each text the agents see is cut to at most that many characters (see `cutPassage`); the ranking is
 * the pipeline's over the whole documents.
 */
export function passageRetriever(retriever: Retriever, lookup: DocumentLookup, options: { passageChars?: number } = {}): TextRetriever {
  const cut = options.passageChars;
  if (cut !== undefined && (!Number.isInteger(cut) || cut < 1)) throw new Error(`passageChars must be a whole number ≥ 1, got ${cut}`);
  const shown = (text: string) => (cut === undefined ? text : cutPassage(text, cut));
  return {
    async search(text: string, k: number, signal?: AbortSignal): Promise<RetrievedPassage[]> {
      const hits = await retriever.search(text, k, signal);
      signal?.throwIfAborted();
      const docs = await lookup(hits.map((h) => h.id));
      return hits.map((hit, i) => {
        const doc = docs[i];
        return doc ? { id: hit.id, score: hit.score, text: shown(documentText(doc)), title: doc.title } : { id: hit.id, score: hit.score, text: '' };
      });
    },
  };
}

/** `text` cut to at most `maxChars` characters: at the last space before the limit (when there is one in its second half), then `…`. */
export function cutPassage(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = text.slice(0, Math.max(1, maxChars - 1));
  const space = head.lastIndexOf(' ');
  return `${(space >= head.length / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}
