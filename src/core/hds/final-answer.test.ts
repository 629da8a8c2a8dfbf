import { describe, expect, it } from 'vitest';
import { BOXED_ANSWER_INSTRUCTION, finalCallPlan, FORCED_ANSWER_PREFIX, withAnswerInstruction } from './final-answer.ts';

describe('the final call (H10)', () => {
  it('reference: the prompt alone, one user message, no system message', () => {
    expect(finalCallPlan('P\nFinal answer:', 'reference', true)).toEqual({ messages: [{ role: 'user', content: 'P\nFinal answer:' }], applied: 'reference' });
  });

  it('boxed: the concise-answer instruction goes before the closing label', () => {
    expect(withAnswerInstruction('Question: q\n\nFinal answer:')).toBe(`Question: q\n\n${BOXED_ANSWER_INSTRUCTION}\n\nFinal answer:`);
    expect(withAnswerInstruction('Tell me.')).toBe(`Tell me.\n\n${BOXED_ANSWER_INSTRUCTION}`);
    expect(finalCallPlan('Q\nAnswer:', 'boxed', true)).toEqual({ messages: [{ role: 'user', content: withAnswerInstruction('Q\nAnswer:') }], applied: 'boxed' });
  });

  it('boxed-prefix: the assistant turn is pre-filled with the authors\' prefix where the provider continues it, else boxed is applied', () => {
    const plan = finalCallPlan('Q\nAnswer:', 'boxed-prefix', true);
    expect(plan.applied).toBe('boxed-prefix');
    expect(plan.prefix).toBe('\n</think>\n\n**Final Answer:**\n\\boxed{');
    expect(plan.messages).toEqual([{ role: 'user', content: withAnswerInstruction('Q\nAnswer:') }, { role: 'assistant', content: FORCED_ANSWER_PREFIX }]);
    expect(finalCallPlan('Q\nAnswer:', 'boxed-prefix', false)).toEqual({ messages: [{ role: 'user', content: withAnswerInstruction('Q\nAnswer:') }], applied: 'boxed' });
  });
});
