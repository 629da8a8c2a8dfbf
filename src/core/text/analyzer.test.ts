import { describe, expect, it } from 'vitest';
import { Analyzer } from './analyzer.ts';
import { highlightSegments } from './highlight.ts';

describe('Analyzer', () => {
  it('lower-cases, drops English stop words and stems with Porter by default', () => {
    expect(new Analyzer().terms('The Wings of the aircraft were RUNNING')).toEqual(['wing', 'aircraft', 'were', 'run']);
  });

  it('splits on whitespace, punctuation and symbols of any script, and keeps letters of every script', () => {
    const a = new Analyzer({ stemming: 'none' });
    expect(a.terms('heat-transfer (laminar),flow; Zürich—naïve')).toEqual(['heat', 'transfer', 'laminar', 'flow', 'zürich', 'naïve']);
    expect(a.terms('Penhallow (1741–1809) built “curly” quays; £5+tax')).toEqual(['penhallow', '1741', '1809', 'built', 'curly', 'quays', '5', 'tax']);
    expect(a.terms('Αθήνα, القاهرة')).toEqual(['αθήνα', 'القاهرة']);
  });

  it('makes each Chinese and Japanese character a word of its own', () => {
    const a = new Analyzer({ stemming: 'none' });
    expect(a.terms('北京是首都。東京タワー')).toEqual(['北', '京', '是', '首', '都', '東', '京', 'タ', 'ワ', 'ー']);
    expect(a.terms('GPT-4模型')).toEqual(['gpt', '4', '模', '型']);
  });

  it('honours each option', () => {
    expect(new Analyzer({ lowercase: false, stopWords: 'none', stemming: 'none' }).terms('The Cats')).toEqual(['The', 'Cats']);
    expect(new Analyzer({ stopWords: 'none' }).terms('the cats')).toEqual(['the', 'cat']);
    expect(new Analyzer({ stemming: 'none' }).terms('the cats')).toEqual(['cats']);
  });

  it('drops stop words whatever their case when lower-casing is off', () => {
    expect(new Analyzer({ lowercase: false, stemming: 'none' }).terms('The Cat')).toEqual(['Cat']);
  });

  it('de-duplicates query terms in first-seen order', () => {
    expect(new Analyzer().queryTerms('flow cats flowing cat')).toEqual(['flow', 'cat']);
  });

  it('reports word offsets for highlighting', () => {
    expect(new Analyzer().tokens('A cat, running')).toEqual([
      { word: 'A', start: 0, term: null },
      { word: 'cat', start: 2, term: 'cat' },
      { word: 'running', start: 7, term: 'run' },
    ]);
  });
});

describe('highlightSegments', () => {
  it('marks the words whose term matches, keeping all other text verbatim', () => {
    const segments = highlightSegments('Cats run; the <b>dog</b> runs.', ['cat', 'run'], new Analyzer());
    expect(segments.map((s) => s.text).join('')).toBe('Cats run; the <b>dog</b> runs.');
    expect(segments.filter((s) => s.match).map((s) => s.text)).toEqual(['Cats', 'run', 'runs']);
  });

  it('returns the text as one unmarked segment when nothing matches', () => {
    expect(highlightSegments('nothing here', ['cat'], new Analyzer())).toEqual([{ text: 'nothing here', match: false }]);
  });
});
