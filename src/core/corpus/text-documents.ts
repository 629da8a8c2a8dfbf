import type { IngestCollector } from './collector.ts';
import type { PassageOptions } from './ingest-types.ts';
import { readLines, type ReadOptions } from './lines.ts';
import { MarkdownTitleFinder } from './markdown-title.ts';
import { pathId } from './ids.ts';
import { extension, stem, type FileSource } from './source.ts';
import { PassageWindow, wordsOf } from './text-passages.ts';

export const MARKDOWN_EXTENSIONS = ['md', 'markdown'];

/**
 * A plain-text or Markdown file as one document (id = path, see `pathId`) or as passages of words (id = `path#n`, n from 1).
 * The title is the first Markdown heading (Markdown files only), else the file name without extension; in split
 * mode a Markdown file's passages wait for that heading (or the end of the file) before they are handed on.
 */
export async function ingestTextFile(
  source: FileSource,
  path: string,
  passages: PassageOptions | undefined,
  collector: IngestCollector,
  read: ReadOptions = {},
): Promise<void> {
  const finder = MARKDOWN_EXTENSIONS.includes(extension(path)) ? new MarkdownTitleFinder() : null;
  let title: string | undefined = finder ? undefined : stem(path);
  const split = passages?.mode === 'split' ? new PassageWindow(passages.size, passages.overlap) : null;
  const wholeText: string[] = [];
  let held: string[][] = [];
  let count = 0;
  const id = pathId(path);
  const emit = (words: string[]) => collector.addDocument({ id: `${id}#${++count}`, title: title ?? '', text: words.join(' ') });
  const offer = (done: string[][]) => {
    if (title === undefined) {
      held.push(...done);
      return;
    }
    for (const words of held) emit(words);
    held = [];
    for (const words of done) emit(words);
  };

  for await (const lines of readLines(source, read)) {
    for (const { text, line, problem } of lines) {
      if (problem !== undefined) {
        collector.reject(problem, { line });
        continue;
      }
      if (title === undefined) title = finder?.push(text);
      if (split) offer(split.push(wordsOf(text)));
      else wholeText.push(text);
    }
    if (split && title !== undefined) offer([]);
    await collector.drain();
  }
  title ??= stem(path);
  if (split) {
    offer(split.finish());
    if (count === 0) collector.reject('empty text: the file has no words');
    return;
  }
  const text = wholeText.join('\n').trim();
  if (text === '') collector.reject('empty text: the file has no words');
  else collector.addDocument({ id, title, text });
}
