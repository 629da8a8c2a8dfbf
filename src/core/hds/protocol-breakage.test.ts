import { describe, expect, it } from 'vitest';
import { protocolBreakage } from './protocol-breakage.ts';
import { runHds } from './run-hds.ts';
import { doc, KeyedRetriever, ScriptedLlm } from './test-doubles.ts';

const B = '<|begin search queries|>';
const E = '<|end search queries|>';

async function run(replies: string[]) {
  return runHds('q', { maxTurns: 3 }, { llm: new ScriptedLlm(replies), retriever: new KeyedRetriever({}, [doc('d1', 1, 'text')]) });
}

describe('protocolBreakage', () => {
  it('counts each kind of breakage over the plan turns of several runs', async () => {
    const runs = await Promise.all([
      run([`${B}alpha${E}`, `${B}beta`, '\\boxed{x}']), // clean, unterminated block, clean answer
      run([`${B} ; ${E}`]), // a block with no query: the visible text is the answer
      run(['just words', ]), // no marker
      run(['\\boxed{...}', 'final']), // placeholder echoed, then the final prompt
    ]);
    expect(protocolBreakage(runs)).toEqual({
      turns: 6, noMarker: 1, unterminatedBlock: 1, emptyQueries: 1, emptyAnswer: 1, headingList: 0, cutByMaxTokens: 0, cutByGuard: 0, finalQueryBlock: 0,
      // the two blocks with an end marker were stopped there (H9), the marker put back
      stoppedAtMarker: 2, inventedResults: 0, onlyRepeats: 0, repeatedQueries: 0, echoedPrompt: 0, runs: 4,
    });
  });

  it('counts queries listed under a heading without the block tokens, and replies cut by max_tokens', async () => {
    const llm = new ScriptedLlm(['Search queries:\n- alpha\n- beta', '\\boxed{x}']);
    const listed = await runHds('q', { maxTurns: 3 }, { llm, retriever: new KeyedRetriever({}, [doc('d1', 1, 'text')]) });
    expect(listed.turns[0]!.action).toEqual({ kind: 'queries', queries: ['alpha', 'beta'] });
    listed.turns[1]!.llm.finishReason = 'length';
    expect(protocolBreakage([listed])).toMatchObject({ turns: 2, noMarker: 0, headingList: 1, cutByMaxTokens: 1 });
  });

  it('counts final-prompt replies that wrote a query block (not plan turns)', async () => {
    const runs = await Promise.all([
      runHds('q', { maxTurns: 1 }, { llm: new ScriptedLlm([`${B}alpha${E}`, `Kansas. ${B}beta${E}`]), retriever: new KeyedRetriever({}, [doc('d1', 1, 'text')]) }),
      runHds('q', { maxTurns: 1 }, { llm: new ScriptedLlm([`${B}alpha${E}`, 'Kansas.']), retriever: new KeyedRetriever({}, [doc('d1', 1, 'text')]) }),
    ]);
    expect(protocolBreakage(runs)).toMatchObject({ turns: 2, finalQueryBlock: 1 });
  });

  it('is all zeros for no runs', () => {
    expect(protocolBreakage([])).toEqual({
      turns: 0, noMarker: 0, unterminatedBlock: 0, emptyQueries: 0, emptyAnswer: 0, headingList: 0, cutByMaxTokens: 0, cutByGuard: 0, finalQueryBlock: 0,
      stoppedAtMarker: 0, inventedResults: 0, onlyRepeats: 0, repeatedQueries: 0, echoedPrompt: 0, runs: 0,
    });
  });

  it('counts invented results blocks, turns that only repeat earlier queries, and answers that echo the instructions', async () => {
    const R = '<|begin search results|>';
    const retriever = new KeyedRetriever({}, [doc('d1', 1, 'text')]);
    // Without stop sequences the model writes its own results; with them it is stopped at the results marker.
    const unstopped = await runHds('q', { maxTurns: 3, planStop: 'none' }, { llm: new ScriptedLlm([`${B}alpha${E}\n${R}\nmade up`, `${B}alpha${E}`, '\\boxed{x}']), retriever });
    const stopped = await runHds('q', { maxTurns: 2 }, { llm: new ScriptedLlm([`${B}alpha${E}\n${R}\nmade up`, 'x']), retriever });
    expect(unstopped.turns[0]!.inventedResults).toBe(true);
    expect(unstopped.turns[1]!.onlyRepeats).toBe(true);
    expect(stopped.turns[0]!.inventedResults).toBeUndefined(); // the stop came first, at the end marker
    // The system message's example answer, echoed as the answer.
    const system = 'Answer like this example: the capital city of France.';
    const echo = await runHds('q', { maxTurns: 1 }, { llm: new ScriptedLlm(['The capital city of France']), retriever, systemPrompt: system });
    const echoTemplate = await runHds('q', { maxTurns: 1 }, { llm: new ScriptedLlm(['answers questions with the help of a search tool']), retriever });
    const name = await runHds('q', { maxTurns: 1 }, { llm: new ScriptedLlm(['France']), retriever, systemPrompt: system });
    expect(protocolBreakage([unstopped, stopped, echo, echoTemplate, name])).toMatchObject({ inventedResults: 1, onlyRepeats: 1, repeatedQueries: 1, echoedPrompt: 2, runs: 5 });
  });
});
