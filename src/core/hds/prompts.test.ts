import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FINAL_PROMPT,
  DEFAULT_PLAN_PROMPT,
  renderFinalPrompt,
  renderInteractionLog,
  renderPlanPrompt,
} from './prompts.ts';

describe('HDS prompts (the reference, docs/decisions.md#hds-reference)', () => {
  it('the first-turn plan prompt ends with the turn, budget, empty log and cue', () => {
    const prompt = renderPlanPrompt(DEFAULT_PLAN_PROMPT, {
      query: 'How did the Moon form?',
      turn: 1,
      maxTurns: 3,
      remainingSearchCalls: 8,
      log: [],
    });
    expect(prompt.endsWith('Turn: 1/3\nRemaining search calls: 8\nInteraction log:\n(none)\n\nNext action:')).toBe(true);
    expect(prompt).toContain('\nQuestion:\nHow did the Moon form?\n');
    expect(prompt).toContain('<|begin search queries|>');
    expect(prompt).toContain('<|end search queries|>');
    expect(prompt).toContain('\\boxed{...}');
    expect(prompt.split('\n')[0]).toMatch(/Hybrid Deep Searcher agent/);
  });

  it('the final prompt has question, log and cue', () => {
    const prompt = renderFinalPrompt(DEFAULT_FINAL_PROMPT, { query: 'Q?', log: ['r1', 'block'] });
    expect(prompt.endsWith('\n\nQuestion:\nQ?\n\nInteraction log:\nr1\nblock\n\nFinal answer:')).toBe(true);
    expect(prompt.split('\n')[0]).toMatch(/interaction log/);
  });

  it('the log is joined with single newlines, or (none)', () => {
    expect(renderInteractionLog([])).toBe('(none)');
    expect(renderInteractionLog(['a', '', 'b'])).toBe('a\n\nb');
  });
});
