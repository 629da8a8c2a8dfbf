import { describe, expect, it } from 'vitest';
import fixture from './fixtures/real-unmarked-answers-1.5b.json';
import { exactMatch } from '../eval/index.ts';
import { extractShortSpan, scoredAnswer } from './answer-rule.ts';
import { extractFinalAnswer } from './parse-action.ts';
import { readFinalReply, FORCED_ANSWER_PREFIX } from './final-answer.ts';

describe('extractShortSpan (H12, rule short-span-1)', () => {
  it('recovers the gold answer from real replies of the 1.5B model that wrote it in a sentence, without a marker', () => {
    expect(fixture.replies).toHaveLength(10);
    for (const r of fixture.replies) {
      const given = extractFinalAnswer(r.reply);
      // As given (H8) the answer is the whole sentence (or the marked answer), which scores EM 0 but for one…
      const span = given.marker === 'none' ? extractShortSpan(given.action.text, r.question) : given.action.text;
      expect(exactMatch(span, [r.gold]), `${r.questionId}: “${span}” from “${r.reply.slice(0, 80)}…”`).toBe(1);
    }
    const asGiven = fixture.replies.filter((r) => exactMatch(r.answerAsGiven, [r.gold]) === 1).length;
    expect(asGiven).toBeLessThanOrEqual(2);
  });

  it('follows its documented steps: "the answer is", a short reply, the last copula, new words, the first sentence', () => {
    expect(extractShortSpan('The answer is Paris, which is in France.', 'Where is the Louvre?')).toBe('Paris');
    expect(extractShortSpan('**Paris.**', 'Where is the Louvre?')).toBe('Paris');
    expect(extractShortSpan('"Oslo"', 'q')).toBe('Oslo');
    expect(extractShortSpan('The museum that holds the Mona Lisa is located in the city of Paris (France).', 'Which city holds the Mona Lisa museum?')).toBe('located in the city of Paris');
    expect(extractShortSpan('The memorial honours the fallen of World War II, which had over 60 million casualties.', 'The memorial honours the fallen of which war, that had over 60 million casualties?')).toBe('World War II');
    expect(extractShortSpan('<think>hmm</think>\nAnswer: Saltmere', 'q')).toBe('Saltmere');
    expect(extractShortSpan('<|begin search queries|>x<|end search queries|>', 'q')).toBe('');
    expect(extractShortSpan('', 'q')).toBe('');
  });

  it('is one rule for every method: a marked answer is kept, an unmarked one is extracted and flagged', () => {
    expect(scoredAnswer('Paris', true, 'q')).toEqual({ text: 'Paris', source: 'marked', rule: 'short-span-1' });
    const reply = 'From the passages it is clear that the city in question is Paris.';
    expect(scoredAnswer(reply, false, 'Which city?')).toMatchObject({ text: 'Paris', source: 'extracted' });
    expect(scoredAnswer('', true, 'q')).toMatchObject({ text: '', source: 'empty' });
  });
});

describe('the forced \\boxed{ pre-fill (H10)', () => {
  it('reads real continuations of the 1.5B model after the authors\' prefix', () => {
    // Replies of qwen2.5-coder-1.5b-instruct-q4_k_m (llama.cpp) to the final prompt pre-filled with the prefix.
    expect(readFinalReply('Janet Waldo}', FORCED_ANSWER_PREFIX)).toMatchObject({ action: { kind: 'answer', text: 'Janet Waldo' }, marker: 'boxed' });
    expect(readFinalReply('Shirley Temple}', FORCED_ANSWER_PREFIX)).toMatchObject({ action: { kind: 'answer', text: 'Shirley Temple' }, marker: 'boxed' });
    // Cut before the closing brace: the text after the open \boxed{ is the answer.
    expect(readFinalReply('Paris', FORCED_ANSWER_PREFIX)).toMatchObject({ action: { kind: 'answer', text: 'Paris' }, marker: 'boxed' });
    // More text after the brace is not part of the answer.
    expect(readFinalReply('Margery Fennick} because the log says so', FORCED_ANSWER_PREFIX).action.text).toBe('Margery Fennick');
  });
});
