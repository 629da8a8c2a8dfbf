import type { CorpusDocument } from '../corpus/index.ts';

/**
 * The text embedded for a document: `title + ". " + text`, or just `text` when the title is empty or blank
 * (the usual BEIR convention of putting the title first, with a sentence break between).
 */
export function documentText(doc: Pick<CorpusDocument, 'title' | 'text'>): string {
  const title = doc.title.trim();
  return title === '' ? doc.text : `${title}. ${doc.text}`;
}
