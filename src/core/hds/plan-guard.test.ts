import { describe, expect, it } from 'vitest';
import looped from './fixtures/real-looped-replies-1.5b.json';
import { parseHdsResponse } from './parse-action.ts';
import { findPlanLoop, LOOP_MIN_CHARS, LOOP_MIN_COPIES, loopPeriod } from './plan-guard.ts';

/** Real plan replies of Qwen2.5-Coder-1.5B (temperature 0, max_tokens 256), from the bench's saved runs. */
const REPLIES = looped as Array<{ source: string; endedBy: string; reply: string }>;
const reply = (id: string) => REPLIES.find((r) => r.source.includes(id))!.reply;

/** The guard as the loop runs it: on the reply so far, after every streamed piece of `chunk` characters. */
function streamed(text: string, chunk = 4) {
  for (let n = chunk; n < text.length + chunk; n += chunk) {
    const cut = findPlanLoop(text.slice(0, n));
    if (cut) return { ...cut, atChar: Math.min(n, text.length) };
  }
  return undefined;
}

describe('the plan guard (extension plan-guard)', () => {
  it('ends a real reply that repeats one query, keeping one copy and closing the block', () => {
    const text = reply('5a760ab65542994ccc918697');
    const cut = streamed(text)!;
    expect(cut.rule).toBe('repetition');
    expect(cut.text).toBe('Richard Nixon');
    expect(cut.atChar).toBeLessThan(200); // of 1,274 characters received at max_tokens
    expect(cut.content).toBe('Think; <|begin search queries|>Richard Nixon<|end search queries|>');
    expect(parseHdsResponse(cut.content, 4).action).toEqual({ kind: 'queries', queries: ['Richard Nixon'] });
  });

  it('keeps the query a loop began inside whole, and the queries before the loop', () => {
    const cut = streamed(reply('5ab978855542996be2020512'))!;
    expect(cut).toMatchObject({ rule: 'repetition', text: 'burial grounds' });
    expect(cut.content.endsWith('burial sites; burial grounds<|end search queries|>')).toBe(true);
    expect(parseHdsResponse(cut.content, 4).action).toEqual({ kind: 'queries', queries: ['dwelling place of the dead', 'burial chambers', 'tombs', 'burial grounds'] });
    const words = streamed(reply('5a88658955429938390d3f47'))!; // "… decision decision decision …"
    expect(words.text).toBe('decision');
    expect(parseHdsResponse(words.content, 4).action).toMatchObject({ kind: 'queries', queries: ['consitutional practice of filling armed forces vacancies', 'Rostker v. Goldberg', 'Supreme Court', 'Supreme Court case'] });
  });

  it('ends an open query block at a misspelled end marker, spelled right', () => {
    const text = reply('5adf37a95542995ec70e8f97');
    expect(text).toContain('<|end search queries>');
    const cut = streamed(text)!;
    expect(cut).toMatchObject({ rule: 'misspelled-marker', text: '<|end search queries>' });
    expect(cut.content).toBe('Think; <|begin search queries|>year of founding Virginia Commonwealth University<|end search queries|>');
  });

  it('leaves alone a list that changes as it goes, and a real reply that repeats a span a few times then ends', () => {
    expect(streamed(reply('5ae738f75542991bbc9761c4'))).toBeUndefined(); // "Redskins draft year 1998; … 1999; …"
    const few = reply('5abc8d75554299700f9d7900');
    expect(REPLIES.find((r) => r.reply === few)!.endedBy).toBe('stop-sequence');
    expect(streamed(few)).toBeUndefined();
  });

  it('needs the span repeated enough times over enough characters, with a letter or digit in it', () => {
    const unit = 'ab; ';
    expect(loopPeriod(unit.repeat(LOOP_MIN_CHARS / unit.length))).toBe(4);
    expect(loopPeriod(unit.repeat(LOOP_MIN_CHARS / unit.length - 1))).toBe(0);
    const long = 'a much longer query that repeats; ';
    expect(loopPeriod(long.repeat(LOOP_MIN_COPIES))).toBe(long.length);
    expect(loopPeriod(long.repeat(LOOP_MIN_COPIES - 1))).toBe(0);
    expect(loopPeriod('x\n' + '-'.repeat(300))).toBe(0);
    expect(loopPeriod(' '.repeat(300))).toBe(0);
    expect(findPlanLoop('<|end search queries>')).toBeUndefined(); // no block open: nothing to end
  });
});
