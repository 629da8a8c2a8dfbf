import { describe, expect, it } from 'vitest';
import type { CorpusDocument } from '../corpus/index.ts';
import type { Retriever } from '../retrieval/index.ts';
import { cutPassage, passageRetriever } from './passage-retriever.ts';

const ranking: Retriever = {
  pipeline: 'fake',
  config: {},
  async search(text, k) {
    return [
      { id: 'a', score: 2.5 },
      { id: 'gone', score: 1 },
      { id: 'b', score: 0.5 },
    ].slice(0, k);
  },
};
const docs: Record<string, CorpusDocument> = {
  a: { id: 'a', title: 'Alpha', text: 'The first passage.' },
  b: { id: 'b', title: '  ', text: 'Untitled passage.' },
};

describe('passageRetriever', () => {
  it('keeps the ranking and adds texts and titles from the corpus', async () => {
    const asked: string[][] = [];
    const retriever = passageRetriever(ranking, async (ids) => {
      asked.push([...ids]);
      return ids.map((id) => docs[id]);
    });
    expect(await retriever.search('q', 3)).toEqual([
      { id: 'a', score: 2.5, text: 'Alpha. The first passage.', title: 'Alpha' },
      { id: 'gone', score: 1, text: '' },
      { id: 'b', score: 0.5, text: 'Untitled passage.', title: '  ' },
    ]);
    expect(asked).toEqual([['a', 'gone', 'b']]); // one lookup per query
    expect(await retriever.search('q', 1)).toHaveLength(1);
  });

  it('with passageChars, cuts the texts the agents see at a word, keeping the ranking', async () => {
    const retriever = passageRetriever(ranking, async (ids) => ids.map((id) => docs[id]), { passageChars: 14 });
    expect(await retriever.search('q', 3)).toEqual([
      { id: 'a', score: 2.5, text: 'Alpha. The…', title: 'Alpha' },
      { id: 'gone', score: 1, text: '' },
      { id: 'b', score: 0.5, text: 'Untitled…', title: '  ' },
    ]);
    expect(() => passageRetriever(ranking, async () => [], { passageChars: 0 })).toThrow('passageChars must be a whole number ≥ 1, got 0');
  });

  it('cutPassage keeps short texts, cuts long ones to at most the limit, mid-word only without a space in the second half', () => {
    expect(cutPassage('short text', 10)).toBe('short text');
    const cut = cutPassage('one two three four five', 12);
    expect(cut).toBe('one two…');
    expect(cut.length).toBeLessThanOrEqual(12);
    expect(cutPassage('abcdefghijklmnop', 6)).toBe('abcde…');
  });

  it('stops before the lookup when the signal is aborted', async () => {
    let lookups = 0;
    const retriever = passageRetriever(ranking, async (ids) => {
      lookups++;
      return ids.map((id) => docs[id]);
    });
    const controller = new AbortController();
    controller.abort();
    await expect(retriever.search('q', 3, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(lookups).toBe(0);
  });
});
