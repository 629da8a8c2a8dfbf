// Replies of the real Qwen2.5-Coder-1.5B (fixtures/real-llm-responses-1.5b.json, from the real-LLM bench) that the
// loop handled badly or that need a parser extension.
import { describe, expect, it } from 'vitest';
import fixture from './fixtures/real-llm-responses-1.5b.json';
import { exactMatch, tokenF1 } from '../eval/index.ts';
import { extractFinalAnswer, parseHdsResponse, throughFirstQueryBlock } from './parse-action.ts';
import { PLAN_STOP_SEQUENCES } from './plan-stop.ts';
import { protocolBreakage } from './protocol-breakage.ts';
import { runHds } from './run-hds.ts';
import { HDS_PROTOCOL } from './types.ts';
import { KeyedRetriever, ScriptedLlm } from './test-doubles.ts';

function response(id: string) {
  const found = fixture.responses.find((r) => r.id === id);
  if (!found) throw new Error(`fixture ${id} missing`);
  return found;
}

describe(`real output of ${fixture.model}`, () => {
  it('a query block repeated until max_tokens: the first block runs, and only it goes into the interaction log', async () => {
    const repeated = response('block-repeated-until-max-tokens');
    expect(repeated.finishReason).toBe('length');
    expect(parseHdsResponse(repeated.response, 4).action).toEqual({ kind: 'queries', queries: ['Corliss Archer', 'Kiss and Tell cast'] });
    const first = throughFirstQueryBlock(repeated.response)!;
    expect(first).toBe('Think; <|begin search queries|>Corliss Archer; Kiss and Tell cast<|end search queries|>');

    const passage = { id: 'd1', score: 1, text: 'Shirley Temple played Corliss Archer in Kiss and Tell.' };
    const retriever = new KeyedRetriever({ 'Kiss and Tell cast': [passage] });
    const llm = new ScriptedLlm([repeated.response, '\\boxed{Chief of Protocol}']);
    // Without stop sequences (the reference), as this reply was generated.
    const run = await runHds(repeated.question, { planStop: 'none' }, { llm, retriever });
    expect(run.answer).toBe('Chief of Protocol');
    expect(run.interactionLog[0]).toBe(first);
    expect(run.turns[0]!.llm.response).toBe(repeated.response); // the record keeps the whole reply
    expect(run.turns[0]!.logCutAfterBlock).toBe(true);
    // The second plan prompt shows the block once, not its eight copies.
    const secondPrompt = run.turns[1]!.llm.prompt;
    expect(secondPrompt.split('<|begin search queries|>Corliss Archer').length - 1).toBe(1);
    expect(secondPrompt.length).toBeLessThan(repeated.response.length + run.turns[0]!.llm.prompt.length);
    expect(HDS_PROTOCOL.extensions).toContain('log-cut-after-query-block');
    expect(protocolBreakage([run])).toMatchObject({ turns: 2, noMarker: 0 });
  });

  it('the same reply under H9: the server stops at the first end marker, which the loop puts back', async () => {
    const repeated = response('block-repeated-until-max-tokens');
    const retriever = new KeyedRetriever({}, [{ id: 'd1', score: 1, text: 'Shirley Temple played Corliss Archer.' }]);
    const llm = new ScriptedLlm([repeated.response, '\\boxed{Chief of Protocol}']);
    const run = await runHds(repeated.question, {}, { llm, retriever });
    const turn = run.turns[0]!;
    expect(llm.requests[0]!.stop).toEqual([...PLAN_STOP_SEQUENCES]);
    expect(turn.llm.stop).toEqual([...PLAN_STOP_SEQUENCES]);
    expect(turn.llm.response).toBe('Think; <|begin search queries|>Corliss Archer; Kiss and Tell cast<|end search queries|>');
    expect(turn.llm.markerRestored).toBe('<|end search queries|>');
    expect(turn.llm.endedBy).toBe('stop-sequence');
    expect(turn.logCutAfterBlock).toBeUndefined(); // nothing after the block to cut
    expect(turn.queriesExecuted).toEqual(['Corliss Archer', 'Kiss and Tell cast']);
    expect(run.interactionLog[0]).toBe(turn.llm.response);
    expect(protocolBreakage([run])).toMatchObject({ turns: 2, cutByMaxTokens: 0 });
  });

  it('a first block followed by ever longer blocks: only the first runs (the later ones are never read)', () => {
    const growing = response('growing-blocks-until-max-tokens');
    const parsed = parseHdsResponse(growing.response, 4);
    expect(parsed.action).toEqual({ kind: 'queries', queries: ['Corliss Archer', 'Kiss and Tell cast'] });
    expect(parsed.queriesOverCap).toEqual([]);
    expect(throughFirstQueryBlock(growing.response)).toBe('Think; <|begin search queries|>Corliss Archer; Kiss and Tell cast<|end search queries|>');
  });

  it('a reply that copies the log (its block, then results it makes up): the copied results are neither queries nor logged', async () => {
    for (const id of ['echoes-log-with-results', 'echoes-log-with-repeat-notes']) {
      const echoed = response(id);
      expect(echoed.response).toContain('<|begin search results|>');
      const parsed = parseHdsResponse(echoed.response, 4);
      expect(parsed.action).toEqual({ kind: 'queries', queries: ['Corliss Archer', 'Kiss and Tell cast'] });
      expect(parsed.unterminatedQueryBlock).toBeUndefined();
      const logged = throughFirstQueryBlock(echoed.response)!;
      expect(logged).not.toContain('<|begin search results|>');
      expect(logged.endsWith('<|end search queries|>')).toBe(true);
    }
    // In a run, the repeated queries cost no search call (H5) and the made-up results stay out of the next prompt.
    const first = response('growing-blocks-until-max-tokens');
    const echoed = response('echoes-log-with-results');
    const retriever = new KeyedRetriever({}, [{ id: 'd1', score: 1, text: 'Meet Corliss Archer is a sitcom.' }]);
    const run = await runHds(first.question, {}, { llm: new ScriptedLlm([first.response, echoed.response, '\\boxed{Chief of Protocol}']), retriever });
    expect(retriever.calls).toHaveLength(2);
    expect(run.turns[1]!.queriesRepeated.map((r) => r.query)).toEqual(['Corliss Archer', 'Kiss and Tell cast']);
    expect(run.searchCallsUsed).toBe(2);
    expect(run.turns[2]!.llm.prompt.split('<|begin search results|>').length - 1).toBe(2); // the two real results blocks
  });

  it('last turn\'s queries restated first, then new ones: the repeats cost no search call and do not fill the parallel cap', async () => {
    const first = response('five-queries-over-cap');
    const second = response('repeats-first-then-new-queries');
    const retriever = new KeyedRetriever({}, [{ id: 'd1', score: 1, text: 'Animorphs is a science fantasy series.' }]);
    const run = await runHds(first.question, {}, { llm: new ScriptedLlm([first.response, second.response, '\\boxed{Animorphs}']), retriever });
    const [t1, t2] = run.turns;
    expect(t1!.queriesExecuted).toEqual(['science fantasy young adult series', 'first person', 'enslaved worlds', 'alien species']);
    expect(t1!.queriesCutByCap).toEqual(['companion books']);
    expect(t2!.queriesRepeated.map((r) => r.query)).toEqual(['science fantasy young adult series', 'first person', 'enslaved worlds', 'alien species']);
    // Before the extension the cap took the four repeats and nothing new ran in turn 2.
    expect(t2!.queriesExecuted).toEqual(['companion books', 'Toshiro Konishi', 'The Joe Schmo Show', 'Chak 86/6.R Sahiwal']);
    expect(t2!.queriesCutByCap).toContain('Animorphs');
    expect(run.searchCallsUsed).toBe(8);
    expect(HDS_PROTOCOL.extensions).toContain('repeats-outside-parallel-cap');
  });

  it('queries listed under "Search queries:" without the block tokens are a query block (heading-list-query-block), counted as breakage', async () => {
    const listed = response('heading-list-queries');
    const parsed = parseHdsResponse(listed.response, 4);
    expect(parsed.marker).toBe('query-block');
    expect(parsed.headingList).toBe(true);
    expect(parsed.action).toEqual({ kind: 'queries', queries: ['Edmund Carrow design Harrow Point lighthouse', 'Edmund Carrow engineer Harrow Point lighthouse'] });
    const retriever = new KeyedRetriever({}, [{ id: 'm040', score: 1, text: 'Hugh Ransome was educated at St Brannoc\'s College.' }]);
    const run = await runHds(listed.question, {}, { llm: new ScriptedLlm([listed.response, '\\boxed{Margery Fennick}']), retriever });
    expect(retriever.calls.map(([q]) => q)).toEqual(['Edmund Carrow design Harrow Point lighthouse', 'Edmund Carrow engineer Harrow Point lighthouse']);
    expect(run.turns[0]!.headingList).toBe(true);
    expect(run.answer).toBe('Margery Fennick');
    expect(protocolBreakage([run])).toMatchObject({ turns: 2, noMarker: 0, headingList: 1 });
    expect(HDS_PROTOCOL.extensions).toContain('heading-list-query-block');
    // Text that only mentions queries, with no heading line and list, stays an unmarked answer (H4).
    expect(parseHdsResponse('Search queries: Edmund Carrow design', 4).marker).toBe('none');
    expect(parseHdsResponse('The search queries found nothing.\n- Edmund Carrow', 4).marker).toBe('none');
  });

  it('a reply that is only its block, or has reasoning tags, is logged as it is', () => {
    expect(throughFirstQueryBlock('<|begin search queries|>a; b<|end search queries|>\n')).toBeUndefined();
    expect(throughFirstQueryBlock('<think>x</think><|begin search queries|>a<|end search queries|> more')).toBeUndefined();
    expect(throughFirstQueryBlock('\\boxed{x}')).toBeUndefined();
  });

  it('a final answer without \\boxed{} is the trimmed reply, flagged unmarked (H8)', async () => {
    const final = response('unmarked-final-answer');
    const run = await runHds(final.question, { maxTurns: 1 }, { llm: new ScriptedLlm([response('block-repeated-until-max-tokens').response, final.response]), retriever: new KeyedRetriever({}) });
    expect(run.terminatedBy).toBe('max_turns_fallback');
    expect(run.fallback!.marker).toBe('none');
    expect(run.answer).toBe(final.response.trim());
  });
  it('a final answer followed by a query block no turn is left to run: the text before the block is the answer (final-answer-without-query-block)', async () => {
    const final = response('final-answer-then-query-block');
    const run = await runHds(final.question, { maxTurns: 1 }, { llm: new ScriptedLlm([response('block-repeated-until-max-tokens').response, final.response]), retriever: new KeyedRetriever({}) });
    expect(run.answer).toBe('The director must be found first.');
    expect(run.fallback).toMatchObject({ marker: 'none', action: { unmarked: true, unrunQueries: ['director of the film Blue Harbor', 'Blue Harbor film 1987 cast'] } });
    expect(protocolBreakage([run]).finalQueryBlock).toBe(1);
    expect(run.protocol.extensions).toContain('final-answer-without-query-block');
  });

  it('the same with the block cut by max_tokens: the block is dropped to the end, and F1 counts only the answer', () => {
    const final = response('final-answer-then-block-cut-by-max-tokens');
    expect(final.finishReason).toBe('length');
    const read = extractFinalAnswer(final.response);
    expect(read.action.text).toBe("The battle in which Giuseppe Arimondi lost his life secured Ethiopia's independence.");
    expect(read.action.unrunQueries?.[0]).toBe('Giuseppe Arimondi battle Ethiopia');
    // Read whole, the repeated "Ethiopia" of the cut block dilutes F1; either way it is not the gold answer.
    expect(tokenF1(read.action.text, final.answers)).toBe(0);
    expect(exactMatch(read.action.text, final.answers)).toBe(0);
  });
});
