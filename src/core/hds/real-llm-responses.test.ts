// Responses of a real small model (saved in fixtures/real-llm-responses.json) that the parser or loop once mishandled.
import { describe, expect, it } from 'vitest';
import fixture from './fixtures/real-llm-responses.json';
import { parseHdsResponse } from './parse-action.ts';
import { runHds } from './run-hds.ts';
import { KeyedRetriever, ScriptedLlm } from './test-doubles.ts';

function response(id: string) {
  const found = fixture.responses.find((r) => r.id === id);
  if (!found) throw new Error(`fixture ${id} missing`);
  return found;
}

describe(`real output of ${fixture.model}`, () => {
  it('the prompt\'s own \\boxed{...} echoed back is no answer', () => {
    const echoed = response('echoed-boxed-placeholder');
    const parsed = parseHdsResponse(echoed.response, 4);
    expect(parsed.marker).toBe('boxed');
    expect(parsed.action).toEqual({ kind: 'answer', text: '' });
  });

  it('after an echoed placeholder the loop asks the final prompt for the answer', async () => {
    const echoed = response('echoed-boxed-placeholder');
    const llm = new ScriptedLlm([echoed.response, 'Chief of Protocol']);
    const run = await runHds(echoed.question, {}, { llm, retriever: new KeyedRetriever({}) });
    expect(run.turns).toHaveLength(1);
    expect(run.fallback).toBeDefined();
    expect(run.terminatedBy).toBe('answer_fallback');
    expect(run.answer).toBe('Chief of Protocol');
  });

  it('the prompt\'s two actions echoed back run no search and give no answer', async () => {
    const echoed = response('echoed-both-actions');
    expect(parseHdsResponse(echoed.response, 4).action).toEqual({ kind: 'answer', text: '' });
    const retriever = new KeyedRetriever({});
    const run = await runHds(echoed.question, {}, { llm: new ScriptedLlm([echoed.response, 'Chief of Protocol']), retriever });
    expect(retriever.calls).toEqual([]);
    expect(run.answer).toBe('Chief of Protocol');
  });

  it('queries written before an echoed \\boxed{...} are run (the placeholder does not win over a real query block)', async () => {
    const mixed = response('queries-then-echoed-placeholder');
    const parsed = parseHdsResponse(mixed.response, 4);
    expect(parsed.marker).toBe('query-block');
    expect(parsed.action).toEqual({ kind: 'queries', queries: ['Corliss Archer actress Kiss and Tell film', 'Kiss and Tell 1945 cast'] });
    const retriever = new KeyedRetriever({ 'Kiss and Tell 1945 cast': [{ id: 'd1', score: 1, text: 'Shirley Temple played Corliss Archer.' }] });
    const run = await runHds(mixed.question, {}, { llm: new ScriptedLlm([mixed.response, '\\boxed{Chief of Protocol}']), retriever });
    expect(retriever.calls.map(([query]) => query)).toEqual(['Corliss Archer actress Kiss and Tell film', 'Kiss and Tell 1945 cast']);
    expect(run.answer).toBe('Chief of Protocol');
  });

  it('the prompt\'s "between <|begin search queries|> and <|end search queries|>" alone is no query', () => {
    const onlyEcho = response('echoed-both-actions').response.split('\n')[0]!;
    const parsed = parseHdsResponse(onlyEcho, 4);
    expect(parsed.marker).toBe('query-block');
    expect(parsed.action).toEqual({ kind: 'answer', text: '' });
  });

  it('an echoed action (b) with a real \\boxed{…} in it is that answer (H3), not a placeholder', () => {
    const filled = response('echoed-action-b-with-answer');
    const parsed = parseHdsResponse(filled.response, 4);
    expect(parsed.marker).toBe('boxed');
    expect(parsed.action).toEqual({ kind: 'answer', text: expect.stringMatching(/^The engineer who designed the Harrow Point lighthouse founded/) });
  });

  it('a \\boxed{ cut off by max_tokens is the text after it, flagged, not the whole reply unmarked', async () => {
    const cut = response('boxed-cut-by-max-tokens');
    const parsed = parseHdsResponse(cut.response, 4);
    expect(parsed.marker).toBe('boxed');
    expect(parsed.unterminatedAnswer).toBe(true);
    expect(parsed.action.kind === 'answer' && parsed.action.text).toMatch(/^The series "The Young Adult" is a science fantasy/);
    const run = await runHds(cut.question, {}, { llm: new ScriptedLlm([cut.response]), retriever: new KeyedRetriever({}) });
    expect(run.answer).not.toContain('\\boxed');
    expect(run.turns[0]!.unterminatedAnswer).toBe(true);
    // A closed \boxed{} is read as before.
    expect(parseHdsResponse('\\boxed{Paris}', 4).unterminatedAnswer).toBeUndefined();
  });

  it('dots inside a real answer are kept', () => {
    expect(parseHdsResponse('\\boxed{St. Louis...}', 4).action).toEqual({ kind: 'answer', text: 'St. Louis...' });
    expect(parseHdsResponse('\\boxed{\u2026}', 4).action).toEqual({ kind: 'answer', text: '' });
  });
});
