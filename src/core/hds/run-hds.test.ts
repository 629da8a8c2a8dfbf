import { describe, expect, it } from 'vitest';
import readme from './README.md?raw';
import { LlmError, type LlmProvider } from '../llm/index.ts';
import { DEFAULT_HDS_CONFIG } from './config.ts';
import { REPEATED_BLOCK_NOTICE } from './results-block.ts';
import { HdsRunError, runHds } from './run-hds.ts';
import { doc, KeyedRetriever, RuntimeError, ScriptedLlm } from './test-doubles.ts';
import type { AgentDeps, HdsEvent, HdsRun } from './types.ts';

const B = '<|begin search queries|>';
const E = '<|end search queries|>';
const block = (q: string) => `${B}${q}${E}`;

function deps(llm: LlmProvider, retriever: KeyedRetriever, extra: Partial<AgentDeps> = {}): AgentDeps {
  return { llm, retriever, ...extra };
}

async function failure(promise: Promise<unknown>): Promise<HdsRunError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof HdsRunError) return err;
    throw err;
  }
  throw new Error('expected the run to fail');
}

describe("the reference's worked configuration scenarios (adapted: no YAML or config registry in the workbench)", () => {
  it('5 get_pipeline_class — TS: runHds is the pipeline; its record identifies itself as HDS with its variant', async () => {
    const run = await runHds('q', {}, deps(new ScriptedLlm(['\\boxed{a}']), new KeyedRetriever({})));
    expect(run.kind).toBe('hds');
    expect(run.protocol.decisions).toEqual(['H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'H7', 'H8', 'H9', 'H10', 'H11', 'H12']);
  });

  it('6 get_pipeline_kwargs_requires_injected_retrieval_pipeline — TS: a missing retriever is "not injected"', async () => {
    const broken = { llm: new ScriptedLlm([]) } as unknown as AgentDeps;
    await expect(runHds('q', {}, broken)).rejects.toThrow('not injected');
  });

  it('7 get_pipeline_kwargs_after_injection — TS: overrides and the injected llm/retriever are used', async () => {
    const llm = new ScriptedLlm([block('x'), '\\boxed{done}']);
    const retriever = new KeyedRetriever({ x: [doc('88', 1, 't')] });
    const run = await runHds('q', { maxTurns: 4, maxParallelQueries: 3 }, deps(llm, retriever));
    expect(run.config.maxTurns).toBe(4);
    expect(run.config.maxParallelQueries).toBe(3);
    expect(run.config.maxSearchCalls).toBe(8);
    expect(run.llm).toEqual(llm.describe());
    expect(retriever.calls).toEqual([['x', 3]]);
  });

  it('8 default_yaml_config_uses_text_query_capable_retriever — TS: defaults equal the shipped YAML; the retriever gets query text', async () => {
    expect(DEFAULT_HDS_CONFIG).toMatchObject({
      maxTurns: 3,
      maxParallelQueries: 4,
      kPerQuery: 3,
      evidenceBudget: 12,
      maxSearchCalls: 8,
      retrievalConcurrency: 4,
      fallbackToFinalPrompt: true,
      allowPartialRetrievalFailures: false,
    });
    const retriever = new KeyedRetriever({});
    await runHds('q', { topK: 3 }, deps(new ScriptedLlm([block('free text query'), '\\boxed{a}']), retriever));
    expect(retriever.calls).toEqual([['free text query', 3]]);
  });
  // 9 default_yaml_references_existing_llm_config: see presets.test.ts (the OpenAI preset names gpt-4o-mini).
});

describe("the reference's worked pipeline scenarios", () => {
  it('11 generate_parallel_search_then_answer', async () => {
    const llm = new ScriptedLlm([
      `<think>Need evidence.</think>${B}moon origin;\nmoon composition${E}`,
      '<think>Enough.</think>\\boxed{The Moon likely formed from giant-impact debris.}',
    ]);
    const retriever = new KeyedRetriever({
      'moon origin': [doc('1', 0.9, 'Giant impact evidence.')],
      'moon composition': [doc('2', 0.8, 'Moon composition evidence.')],
    });
    const run = await runHds('How did the Moon form?', { maxTurns: 3, kPerQuery: 4, topK: 2 }, deps(llm, retriever));
    expect(retriever.calls).toEqual([
      ['moon origin', 2],
      ['moon composition', 2],
    ]);
    expect(run.answer).toBe('The Moon likely formed from giant-impact debris.');
    expect(run.retrievedIds).toEqual(['1', '2']);
    expect(run.terminatedBy).toBe('answer');
    expect(llm.prompts[1]).toContain('moon origin: Giant impact evidence.');
    expect(llm.prompts[1]).toContain('moon composition: Moon composition evidence.');
    expect(run.tokenUsage).toEqual({ promptTokens: 4, completionTokens: 6, totalTokens: 10 });
    expect(run.searchCallsUsed).toBe(2);
    expect(run.retrievalFailures).toEqual([]);
    expect(run.interactionLog).toHaveLength(3);
    expect(run.status).toBe('completed');
  });

  it('12 generate_merges_duplicate_results_and_falls_back', async () => {
    const llm = new ScriptedLlm([block('a; b'), 'fallback answer']);
    const retriever = new KeyedRetriever({ a: [doc('1', 0.2, 'low')], b: [doc('1', 0.9, 'high')] });
    const run = await runHds('q', { maxTurns: 1, kPerQuery: 3, topK: 3 }, deps(llm, retriever));
    expect(run.answer).toBe('fallback answer');
    expect(run.retrievedIds).toEqual(['1']);
    expect(run.interactionLog.join('\n')).toContain('a: low');
    expect(run.interactionLog.join('\n')).toContain('b: high');
    expect(run.terminatedBy).toBe('max_turns_fallback');
    expect(run.interactionLog[1]).toBe('<|begin search results|>\na: low\nb: high\n<|end search results|>');
    expect(run.searchCallsUsed).toBe(2);
    expect(run.interactionLog).toHaveLength(2); // the fallback response is not logged
    expect(llm.prompts[1]).toMatch(/^Answer the question using the Hybrid Deep Searcher rolling interaction log/);
  });

  it('13 generate_backfills_missing_contents (TS: through deps.getTexts)', async () => {
    const llm = new ScriptedLlm([block('a'), '\\boxed{done}']);
    const retriever = new KeyedRetriever({}, [doc('7', 0.9)]);
    const getTextsCalls: string[][] = [];
    const getTexts = async (ids: string[]) => {
      getTextsCalls.push(ids);
      return ['Fetched content.'];
    };
    const run = await runHds('q', { maxTurns: 2, kPerQuery: 1, topK: 1 }, deps(llm, retriever, { getTexts }));
    expect(getTextsCalls).toEqual([['7']]);
    expect(run.interactionLog.join('\n')).toContain('a: Fetched content.');
    expect(run.answer).toBe('done');
    expect(run.terminatedBy).toBe('answer');
    expect(run.turns[0].retrievals[0].results[0].text).toBe('Fetched content.');
  });

  it('14 generate_raises_when_fanout_retrieval_fails_by_default', async () => {
    const llm = new ScriptedLlm([block('broken generated subquery'), block('broken generated subquery')]);
    const retriever = new KeyedRetriever({}, new RuntimeError('retriever unavailable'));
    const err = await failure(runHds('q', { maxTurns: 1 }, deps(llm, retriever)));
    expect(err.message).toBe(
      'Hybrid Deep Searcher retrieval failed for 1 fan-out query(s): broken generated subquery: RuntimeError: retrieval failed',
    );
    // H6: the partial run travels with the error.
    expect(err.run.status).toBe('failed');
    expect(err.run.turns[0].failures).toEqual([
      { query: 'broken generated subquery', error: 'RuntimeError: retrieval failed' },
    ]);
    expect(JSON.stringify(err.run)).not.toContain('retriever unavailable');
  });

  it('15 generate_records_partial_retrieval_failures_when_allowed', async () => {
    const llm = new ScriptedLlm([
      block('ok generated subquery; broken generated subquery'),
      'fallback with partial evidence',
    ]);
    const retriever = new KeyedRetriever({
      'ok generated subquery': [doc('11', 0.7, 'usable evidence')],
      'broken generated subquery': new RuntimeError('boom'),
    });
    const run = await runHds(
      'q',
      { maxTurns: 1, allowPartialRetrievalFailures: true, topK: 1 },
      deps(llm, retriever),
    );
    expect(run.answer).toBe('fallback with partial evidence');
    expect(run.interactionLog.join('\n')).toContain('ok generated subquery: usable evidence');
    expect(run.retrievalFailures).toEqual([
      { query: 'broken generated subquery', error: 'RuntimeError: retrieval failed' },
    ]);
    expect(run.interactionLog[1]).toContain('broken generated subquery: [retrieval failed]');
    expect(run.retrievedIds).toEqual(['11']);
    expect(run.searchCallsUsed).toBe(2);
  });

  it('16 partial_retrieval_failure_metadata_sanitizes_backend_exception_details', async () => {
    const llm = new ScriptedLlm([block('leaky generated subquery'), 'fallback without evidence']);
    const retriever = new KeyedRetriever({}, new RuntimeError('dsn=postgres://user:SECRET_PASSWORD@localhost/db'));
    const events: HdsEvent[] = [];
    const run = await runHds(
      'q',
      { maxTurns: 1, allowPartialRetrievalFailures: true, topK: 1 },
      deps(llm, retriever),
      { onEvent: (e) => events.push(e) },
    );
    expect(run.retrievalFailures).toEqual([
      { query: 'leaky generated subquery', error: 'RuntimeError: retrieval failed' },
    ]);
    expect(JSON.stringify(run)).not.toContain('SECRET_PASSWORD');
    expect(JSON.stringify(events)).not.toContain('SECRET_PASSWORD');
  });

  it('17 generate_three_parallel_queries_then_query_labelled_block_then_boxed_answer', async () => {
    const llm = new ScriptedLlm([
      `<think>fan out</think>${block('q1; q2; q3')}`,
      '<think>synthesize</think>\\boxed{final}',
    ]);
    const retriever = new KeyedRetriever({
      q1: [doc('d1', 0.9, 'c1')],
      q2: [doc('d2', 0.8, 'c2')],
      q3: [doc('d3', 0.7, 'c3')],
    });
    const run = await runHds('q', { maxTurns: 2, maxParallelQueries: 4, topK: 2 }, deps(llm, retriever));
    expect(retriever.calls).toHaveLength(3);
    for (const part of ['<|begin search results|>', 'q1: c1', 'q2: c2', 'q3: c3']) {
      expect(llm.prompts[1]).toContain(part);
    }
    expect(run.answer).toBe('final');
    expect(run.searchCallsUsed).toBe(3);
    expect(run.retrievedIds).toEqual(['d1', 'd2', 'd3']);
  });

  it('18 generate_truncates_fanout_to_search_call_budget_and_forces_finalization', async () => {
    const llm = new ScriptedLlm([block('q1; q2; q3'), 'final after budget']);
    const retriever = new KeyedRetriever({ q1: [doc('d1', 0.9, 'c1')], q2: [doc('d2', 0.8, 'c2')] });
    const run = await runHds(
      'q',
      { maxTurns: 3, maxParallelQueries: 4, maxSearchCalls: 2, topK: 2 },
      deps(llm, retriever),
    );
    expect(retriever.calls).toEqual([
      ['q1', 2],
      ['q2', 2],
    ]);
    expect(run.answer).toBe('final after budget');
    expect(run.searchCallsUsed).toBe(2);
    expect(run.terminatedBy).toBe('max_search_calls_fallback');
    expect(llm.prompts).toHaveLength(2);
    expect(run.interactionLog[1]).toBe('<|begin search results|>\nq1: c1\nq2: c2\n<|end search results|>');
    expect(run.turns[0].queriesCutByBudget).toEqual(['q3']);
  });

  it('19 docs_cover_runtime_contract (TS: this folder\'s README)', () => {
    for (const phrase of [
      'text-query-capable',
      'inference-only',
      'max_concurrency x retrieval_concurrency',
      '<|begin search queries|>',
      'max_search_calls',
    ]) {
      expect(readme).toContain(phrase);
    }
  });
});

describe('termination and fallback details', () => {
  it('H8: a boxed final answer after the search budget is extracted, and the raw reply stays on the call', async () => {
    const llm = new ScriptedLlm([block('q1'), 'The log shows it. \\boxed{\\text{Battle of Guam}}']);
    const run = await runHds('q', { maxSearchCalls: 1 }, deps(llm, new KeyedRetriever({ q1: [doc('d1', 1, 'c1')] })));
    expect(run.terminatedBy).toBe('max_search_calls_fallback');
    expect(run.answer).toBe('Battle of Guam');
    expect(run.fallback).toMatchObject({
      response: 'The log shows it. \\boxed{\\text{Battle of Guam}}',
      marker: 'boxed',
      action: { kind: 'answer', text: 'Battle of Guam' },
    });
    expect(run.fallback?.action?.unmarked).toBeUndefined();
  });

  it('H8: after the last turn, <answer> is read outside reasoning; the last complete boxed wins over it', async () => {
    const tagged = await runHds(
      'q',
      { maxTurns: 1 },
      deps(new ScriptedLlm([block('a'), '<think>\\boxed{draft}</think> <answer> Guam </answer>']), new KeyedRetriever({})),
    );
    expect(tagged.terminatedBy).toBe('max_turns_fallback');
    expect(tagged.answer).toBe('Guam');
    expect(tagged.fallback).toMatchObject({ marker: 'answer-tag', reasoning: '\\boxed{draft}' });
    const boxed = await runHds(
      'q',
      { maxTurns: 1 },
      deps(new ScriptedLlm([block('a'), '<answer>x</answer> \\boxed{a{b}c} \\boxed{Guam'] ), new KeyedRetriever({})),
    );
    expect(boxed.answer).toBe('a{b}c');
    expect(boxed.fallback?.marker).toBe('boxed');
  });

  it('H8: a query block in the final reply is not run and not part of the unmarked answer (final-answer-without-query-block)', async () => {
    const retriever = new KeyedRetriever({});
    const before = await runHds('q', { maxTurns: 1 }, deps(new ScriptedLlm([block('a'), `Kansas, about 2.9 million. ${block('more; other')} `]), retriever));
    expect(retriever.calls).toEqual([['a', 3]]);
    expect(before.answer).toBe('Kansas, about 2.9 million.');
    expect(before.fallback).toMatchObject({ marker: 'none', action: { unmarked: true, unrunQueries: ['more', 'other'] } });
    expect(before.fallback!.response).toBe(`Kansas, about 2.9 million. ${block('more; other')} `); // the raw reply is kept

    // Only a block: no answer. Text after the block (and before any next one) is the answer when none comes before it.
    const only = await runHds('q', { maxTurns: 1 }, deps(new ScriptedLlm([block('a'), `${block('more')} `]), new KeyedRetriever({})));
    expect(only.answer).toBe('');
    expect(only.fallback?.action?.unrunQueries).toEqual(['more']);
    const after = await runHds('q', { maxTurns: 1 }, deps(new ScriptedLlm([block('a'), `${block('more')} Kansas. ${block('more')}`]), new KeyedRetriever({})));
    expect(after.answer).toBe('Kansas.');

    // Without a block the whole trimmed reply is still the answer, and no queries are listed.
    const plain = await runHds('q', { maxTurns: 1 }, deps(new ScriptedLlm([block('a'), ' Kansas. ']), new KeyedRetriever({})));
    expect(plain.answer).toBe('Kansas.');
    expect(plain.fallback?.action?.unrunQueries).toBeUndefined();
  });

  it('an empty boxed answer triggers the fallback as answer_fallback', async () => {
    const run = await runHds('q', {}, deps(new ScriptedLlm(['\\boxed{}', 'from fallback']), new KeyedRetriever({})));
    expect(run.answer).toBe('from fallback');
    expect(run.terminatedBy).toBe('answer_fallback');
  });

  it('without the fallback the answer stays empty and terminated_by stays max_turns', async () => {
    const llm = new ScriptedLlm([block('a')]);
    const run = await runHds('q', { maxTurns: 1, fallbackToFinalPrompt: false }, deps(llm, new KeyedRetriever({})));
    expect(run.answer).toBe('');
    expect(run.terminatedBy).toBe('max_turns');
    expect(run.fallback).toBeUndefined();
  });

  it('an unmarked fallback answer is its trimmed text, flagged unmarked, with reasoning removed (H2, H8)', async () => {
    const raw = await runHds('q', { maxTurns: 1 }, deps(new ScriptedLlm([block('a'), ' raw \n']), new KeyedRetriever({})));
    expect(raw.answer).toBe('raw');
    expect(raw.fallback).toMatchObject({ response: ' raw \n', marker: 'none', action: { kind: 'answer', text: 'raw', unmarked: true } });
    const thinking = await runHds(
      'q',
      { maxTurns: 1 },
      deps(new ScriptedLlm([block('a'), '<think>weigh it</think>\n\nParis']), new KeyedRetriever({})),
    );
    expect(thinking.answer).toBe('Paris');
    expect(thinking.fallback?.reasoning).toBe('weigh it');
  });

  it('usage is summed only over calls that reported it', async () => {
    const llm = new ScriptedLlm([{ content: block('a'), usage: null }, '\\boxed{x}']);
    const run = await runHds('q', {}, deps(llm, new KeyedRetriever({})));
    expect(run.tokenUsage).toEqual({ promptTokens: 2, completionTokens: 3, totalTokens: 5 });
  });

  it('an LLM failure fails the run with its plain message and keeps the partial run', async () => {
    const llm: LlmProvider = {
      describe: () => ({ provider: 'x', baseUrl: '', model: 'm' }),
      complete: async () => {
        throw new LlmError('http', 'The model server failed (HTTP 500) on all 4 attempt(s).');
      },
    };
    const err = await failure(runHds('q', {}, deps(llm, new KeyedRetriever({}))));
    expect(err.message).toBe('The model server failed (HTTP 500) on all 4 attempt(s).');
    expect(err.run.turns[0].status).toBe('failed');
    expect(err.run.turns[0].llm.error).toBe(err.message);
  });
});

describe('H1 in the loop', () => {
  it('writes the results block in the spelling the model used', async () => {
    const llm = new ScriptedLlm(['<|begin_search_queries|>a<|end_search_queries|>', '\\boxed{x}']);
    const run = await runHds('q', {}, deps(llm, new KeyedRetriever({ a: [doc('1', 1, 'alpha')] })));
    expect(run.interactionLog[1]).toBe('<|begin_search_results|>\na: alpha\n<|end_search_results|>');
    expect(run.turns[0].tokenSpelling).toBe('underscores');
  });
});

describe('H2 in the loop', () => {
  it('separate reasoning is recorded, never parsed', async () => {
    const llm = new ScriptedLlm([{ content: block('real query'), reasoning: 'maybe \\boxed{wrong}' }, '\\boxed{ok}']);
    const retriever = new KeyedRetriever({});
    const run = await runHds('q', {}, deps(llm, retriever));
    expect(retriever.calls.map((c) => c[0])).toEqual(['real query']);
    expect(run.turns[0].llm.reasoning).toBe('maybe \\boxed{wrong}');
    expect(run.answer).toBe('ok');
  });

  it('inline <think> text joins the separate reasoning in the record', async () => {
    const llm = new ScriptedLlm([{ content: '<think>inline</think>\\boxed{a}', reasoning: 'separate' }]);
    const run = await runHds('q', {}, deps(llm, new KeyedRetriever({})));
    expect(run.turns[0].llm.reasoning).toBe('separate\n\ninline');
    expect(run.interactionLog[0]).toBe('<think>inline</think>\\boxed{a}'); // the log keeps the raw response
  });
});

describe('H4 in the loop', () => {
  it('a response without markers ends the run as an unmarked answer (reference: searched as a query)', async () => {
    const retriever = new KeyedRetriever({});
    const run = await runHds('q', {}, deps(new ScriptedLlm(['I think the answer is Paris.']), retriever));
    expect(run.answer).toBe('I think the answer is Paris.');
    expect(run.terminatedBy).toBe('answer');
    expect(run.turns[0].action).toEqual({ kind: 'answer', text: 'I think the answer is Paris.', unmarked: true });
    expect(run.turns[0].marker).toBe('none');
    expect(retriever.calls).toEqual([]);
  });
});

describe('repeatedBlock (extension repeated-block): a block that only repeats earlier queries', () => {
  // The 1.5B model's real first reply on a hotpotqa question, which it copied unchanged into its next turns (bench run).
  const real = "Think; <|begin search queries|>These Boots Are Made for Walkin' author; These Boots Are Made for Walkin' 2007 death<|end search queries|>";
  const question = "Who was the writer of These Boots Are Made for Walkin' and who died in 2007?";

  it('log (the default) writes one repeat line per query and goes on to the next turn', async () => {
    const llm = new ScriptedLlm([real, real, real, '\\boxed{x}']);
    const run = await runHds(question, {}, deps(llm, new KeyedRetriever({}, [doc('1', 1, 't')])));
    expect(run.config.repeatedBlock).toBe('log');
    expect(run.turns.map((t) => t.onlyRepeats ?? false)).toEqual([false, true, true]);
    expect(run.turns[1]!.resultsBlock).toBe(
      "<|begin search results|>\nThese Boots Are Made for Walkin' author: [already searched in turn 1]\nThese Boots Are Made for Walkin' 2007 death: [already searched in turn 1]\n<|end search results|>",
    );
    expect(run.terminatedBy).toBe('max_turns_fallback');
  });

  it('notice closes that results block with a line telling the model to search anew or answer, and the next plan prompt carries it', async () => {
    const llm = new ScriptedLlm([real, real, block('Lee Hazlewood death'), '\\boxed{Lee Hazlewood}']);
    const retriever = new KeyedRetriever({}, [doc('1', 1, 't')]);
    const run = await runHds(question, { repeatedBlock: 'notice' }, deps(llm, retriever));
    const lines = run.turns[1]!.resultsBlock!.split('\n');
    expect(lines.at(-2)).toBe(REPEATED_BLOCK_NOTICE);
    expect(lines.at(-1)).toBe('<|end search results|>');
    expect(llm.prompts[2]).toContain(REPEATED_BLOCK_NOTICE);
    // Only a block with nothing new gets it: the first block's results do not.
    expect(run.turns[0]!.resultsBlock).not.toContain(REPEATED_BLOCK_NOTICE);
    expect(retriever.calls.map((c) => c[0])).toEqual([
      "These Boots Are Made for Walkin' author",
      "These Boots Are Made for Walkin' 2007 death",
      'Lee Hazlewood death',
    ]);
    expect(run.answer).toBe('Lee Hazlewood');
  });

  it('notice is not added when the block also searched something new', async () => {
    const llm = new ScriptedLlm([block('a'), block('a; b'), '\\boxed{x}']);
    const run = await runHds('q', { repeatedBlock: 'notice' }, deps(llm, new KeyedRetriever({}, [doc('1', 1, 't')])));
    expect(run.turns[1]!.resultsBlock).toBe('<|begin search results|>\na: [already searched in turn 1]\nb: t\n<|end search results|>');
  });

  it('answer ends the search at that turn and asks the final prompt, spending no further plan call', async () => {
    const llm = new ScriptedLlm([real, real, '\\boxed{Lee Hazlewood}']);
    const retriever = new KeyedRetriever({}, [doc('1', 1, 't')]);
    const run = await runHds(question, { repeatedBlock: 'answer' }, deps(llm, retriever));
    expect(run.turns).toHaveLength(2);
    expect(run.terminatedBy).toBe('repeated_block_fallback');
    expect(run.fallback?.prompt).toContain(question);
    expect(run.answer).toBe('Lee Hazlewood');
    expect(retriever.calls).toHaveLength(2);
    expect(llm.prompts).toHaveLength(3);
  });

  it('is checked: an unknown policy is refused', async () => {
    await expect(runHds('q', { repeatedBlock: 'skip' as never }, deps(new ScriptedLlm([]), new KeyedRetriever({})))).rejects.toThrow(
      'repeated_block must be one of log, notice, answer',
    );
  });
});

describe('finalContext (extension final-context)', () => {
  const retriever = () =>
    new KeyedRetriever({
      a: [doc('1', 3, 'Alpha text.'), doc('2', 2, 'Beta text.')],
      b: [doc('2', 5, 'Beta text.'), doc('3', 1, 'Gamma text.')],
    });

  it('log (the default) fills the final template with the interaction log', async () => {
    const llm = new ScriptedLlm([block('a; b'), block('a'), block('b'), '\\boxed{x}']);
    const run = await runHds('Which?', {}, deps(llm, retriever()));
    expect(run.config.finalContext).toBe('log');
    expect(run.fallback!.prompt).toContain('Interaction log:');
    expect(run.fallback!.prompt).toContain('a: Alpha text. Beta text.');
    expect(run.fallback!.contextIds).toBeUndefined();
  });

  it('passages asks the reading prompt over the distinct passages shown, in the order first shown, without queries or repeats', async () => {
    const llm = new ScriptedLlm([block('a; b'), block('a'), block('b'), '\\boxed{Gamma}']);
    const run = await runHds('Which?', { finalContext: 'passages', finalAnswer: 'boxed' }, deps(llm, retriever()));
    const prompt = run.fallback!.prompt;
    expect(run.fallback!.contextIds).toEqual(['1', '2', '3']);
    expect(prompt).toContain('Answer the question using the paragraphs below. Reply with a concise answer only.');
    expect(prompt.indexOf('Alpha text.')).toBeLessThan(prompt.indexOf('Beta text.'));
    expect(prompt.indexOf('Beta text.')).toBeLessThan(prompt.indexOf('Gamma text.'));
    expect(prompt.split('Beta text.')).toHaveLength(2); // shown twice, given once
    expect(prompt).not.toContain('already searched');
    expect(prompt).not.toContain('<|begin search');
    expect(prompt).toContain('Question: Which?');
    // finalAnswer still decides how the answer is asked for.
    expect(llm.requests.at(-1)!.messages.map((m) => m.role)).toEqual(['user']);
    expect(llm.requests.at(-1)!.messages[0]!.content).toContain('\\boxed{YOUR_ANSWER}');
    expect(run.answer).toBe('Gamma');
  });

  it('is checked: another value is refused', async () => {
    await expect(runHds('q', { finalContext: 'everything' as never }, deps(new ScriptedLlm([]), new KeyedRetriever({})))).rejects.toThrow('final_context must be log or passages');
  });
});

describe('questionSearchK (extension question-search)', () => {
  /** A retriever that, like a real one, returns at most k results. */
  class TopK extends KeyedRetriever {
    override async search(text: string, k: number, signal?: AbortSignal) {
      return (await super.search(text, k, signal)).slice(0, k);
    }
  }
  const retriever = () =>
    new TopK({
      'Who wrote it?': [doc('q1', 9, 'Question text one.'), doc('q2', 8, 'Question text two.'), doc('q3', 7, 'Question text three.')],
      a: [doc('1', 3, 'Alpha text.'), doc('q2', 2, 'Question text two.')],
    });

  it('0 (the default, the reference) searches only what the model writes', async () => {
    const r = retriever();
    const run = await runHds('Who wrote it?', {}, deps(new ScriptedLlm([block('a'), '\\boxed{x}']), r));
    expect(run.config.questionSearchK).toBe(0);
    expect(run.questionSearch).toBeUndefined();
    expect(r.calls).toEqual([['a', 3]]);
  });

  it('searches the question first for its own k, opens the log with a block labelled with the question, and spends one search call', async () => {
    const r = retriever();
    const llm = new ScriptedLlm([block('a'), '\\boxed{x}']);
    const events: HdsEvent[] = [];
    const run = await runHds('Who wrote it?', { questionSearchK: 2, maxTurns: 1 }, deps(llm, r), { onEvent: (e) => events.push(e) });
    expect(r.calls).toEqual([
      ['Who wrote it?', 2],
      ['a', 3],
    ]);
    expect(run.questionSearch).toMatchObject({ turn: 0, queriesExecuted: ['Who wrote it?'], k: 2, status: 'complete' });
    expect(run.questionSearch!.retrievals[0]!.results.map((x) => x.id)).toEqual(['q1', 'q2']);
    expect(run.interactionLog.slice(0, 2)).toEqual([
      '<|begin search queries|>Who wrote it?<|end search queries|>',
      '<|begin search results|>\nWho wrote it?: Question text one. Question text two.\n<|end search results|>',
    ]);
    // The first plan prompt already reads the question's results; its budget says one call is spent.
    expect(llm.requests[0]!.messages.at(-1)!.content).toContain('Who wrote it?: Question text one. Question text two.');
    expect(run.turns[0]!.remainingSearchCalls).toBe(7);
    expect(run.searchCallsUsed).toBe(2);
    expect(run.retrievedIds.slice(0, 2)).toEqual(['q1', 'q2']);
    expect(events.map((e) => e.type).slice(0, 5)).toEqual(['run-start', 'question-search-start', 'retrieval-start', 'retrieval-end', 'question-search-end']);
  });

  it('makes the question asked again a repeat, and puts its passages first in the final prompt under finalContext passages', async () => {
    const r = retriever();
    const llm = new ScriptedLlm([block('Who wrote it?; a'), '\\boxed{x}']);
    const run = await runHds('Who wrote it?', { questionSearchK: 2, maxTurns: 1, finalContext: 'passages' }, deps(llm, r));
    expect(r.calls.map((c) => c[0])).toEqual(['Who wrote it?', 'a']);
    expect(run.turns[0]!.queriesRepeated).toEqual([{ query: 'Who wrote it?', firstTurn: 0 }]);
    expect(run.interactionLog[3]).toContain('Who wrote it?: [already searched before turn 1]');
    expect(run.fallback!.contextIds).toEqual(['q1', 'q2', '1']);
  });

  it('with max_search_calls 1 leaves no call for the model: the final prompt answers from the question\'s results', async () => {
    const r = retriever();
    const llm = new ScriptedLlm(['\\boxed{x}']);
    const run = await runHds('Who wrote it?', { questionSearchK: 3, maxSearchCalls: 1, finalContext: 'passages' }, deps(llm, r));
    expect(run.turns).toHaveLength(0);
    expect(run.terminatedBy).toBe('max_search_calls_fallback');
    expect(run.fallback!.contextIds).toEqual(['q1', 'q2', 'q3']);
  });

  it('is checked: a negative or fractional k is refused', async () => {
    await expect(runHds('q', { questionSearchK: -1 }, deps(new ScriptedLlm([]), new KeyedRetriever({})))).rejects.toThrow('question_search_k must be');
    await expect(runHds('q', { questionSearchK: 1.5 }, deps(new ScriptedLlm([]), new KeyedRetriever({})))).rejects.toThrow('question_search_k must be');
  });
});

describe('H5 repeated queries', () => {
  it('are not retrieved again, cost no call, and say where they were searched', async () => {
    const llm = new ScriptedLlm([block('a; b'), block('b; c'), '\\boxed{x}']);
    const retriever = new KeyedRetriever({}, [doc('1', 1, 't')]);
    const run = await runHds('q', {}, deps(llm, retriever));
    expect(retriever.calls.map((c) => c[0])).toEqual(['a', 'b', 'c']);
    expect(run.searchCallsUsed).toBe(3);
    expect(run.turns[1].queriesRepeated).toEqual([{ query: 'b', firstTurn: 1 }]);
    expect(run.turns[1].queriesExecuted).toEqual(['c']);
    expect(run.interactionLog[3]).toBe('<|begin search results|>\nb: [already searched in turn 1]\nc: t\n<|end search results|>');
  });

  it('a query whose retrieval failed is not a repeat: asked again, it is searched again', async () => {
    let failures = 1;
    const flaky = () => {
      if (failures-- > 0) throw new RuntimeError('timeout');
      return Promise.resolve([doc('9', 1, 'found')]);
    };
    const llm = new ScriptedLlm([block('a; b'), block('b'), '\\boxed{x}']);
    const retriever = new KeyedRetriever({ b: flaky }, [doc('1', 1, 't')]);
    const run = await runHds('q', { allowPartialRetrievalFailures: true }, deps(llm, retriever));
    expect(retriever.calls.map((c) => c[0])).toEqual(['a', 'b', 'b']);
    expect(run.turns[0].retrievals[1]!.status).toBe('failed');
    expect(run.turns[1].queriesRepeated).toEqual([]);
    expect(run.turns[1].retrievals[0]!.status).toBe('ok');
    expect(run.searchCallsUsed).toBe(3);
  });

  it('are removed before the budget truncation', async () => {
    const llm = new ScriptedLlm([block('a; b'), block('a; c; d'), 'fallback']);
    const retriever = new KeyedRetriever({}, [doc('1', 1, 't')]);
    const run = await runHds('q', { maxSearchCalls: 3 }, deps(llm, retriever));
    expect(retriever.calls.map((c) => c[0])).toEqual(['a', 'b', 'c']);
    expect(run.turns[1].remainingSearchCalls).toBe(1);
    expect(run.turns[1].queriesRepeated).toEqual([{ query: 'a', firstTurn: 1 }]);
    expect(run.turns[1].queriesCutByBudget).toEqual(['d']);
    expect(run.terminatedBy).toBe('max_search_calls_fallback');
  });

  it('a turn made only of repeats costs nothing and the loop goes on', async () => {
    const llm = new ScriptedLlm([block('a'), block('a'), '\\boxed{x}']);
    const retriever = new KeyedRetriever({}, [doc('1', 1, 't')]);
    const run = await runHds('q', {}, deps(llm, retriever));
    expect(retriever.calls).toHaveLength(1);
    expect(run.searchCallsUsed).toBe(1);
    expect(run.turns[1].retrievals).toEqual([]);
    expect(run.answer).toBe('x');
  });
});

describe('H6 structured turn record', () => {
  it('records prompt, response, action, cap cuts, results with shown flags and relevance, and timings', async () => {
    const llm = new ScriptedLlm([block('a; b; c'), '\\boxed{x}']);
    const retriever = new KeyedRetriever({
      a: [doc('d1', 0.9, 'one'), doc('d2', 0.5, 'two')],
      b: [doc('d3', 0.4, 'three')],
    });
    const qrels: Record<string, number> = { d1: 2, d3: 0 };
    const run = await runHds(
      'q',
      { maxParallelQueries: 2, evidenceBudget: 1 },
      deps(llm, retriever, { relevance: (id) => qrels[id] }),
    );
    const turn = run.turns[0];
    expect(turn.llm.prompt).toBe(llm.prompts[0]);
    expect(turn.llm.response).toBe(block('a; b; c'));
    expect(turn.action).toEqual({ kind: 'queries', queries: ['a', 'b'] });
    expect(turn.queriesCutByCap).toEqual(['c']);
    expect(turn.queriesExecuted).toEqual(['a', 'b']);
    expect(turn.retrievals[0].results).toEqual([
      { id: 'd1', score: 0.9, text: 'one', shown: true, relevance: 2 },
      { id: 'd2', score: 0.5, text: 'two', shown: false },
    ]);
    expect(turn.retrievals[1].results).toEqual([{ id: 'd3', score: 0.4, text: 'three', shown: true, relevance: 0 }]);
    expect(turn.resultsBlock).toBe('<|begin search results|>\na: one\nb: three\n<|end search results|>');
    expect(turn.llm.usage).toEqual({ promptTokens: 2, completionTokens: 3, totalTokens: 5 });
    expect(turn.llm.endMs).toBeGreaterThanOrEqual(turn.llm.startMs);
    expect(turn.retrieval?.startMs).toBeGreaterThanOrEqual(turn.llm.endMs);
    expect(run.turns[1].llm.startMs).toBeGreaterThanOrEqual(turn.retrieval?.endMs ?? Infinity);
  });

  it('timings let a UI draw parallel retrievals side by side, bounded by retrieval_concurrency', async () => {
    const slow = (id: string) => () => new Promise<ReturnType<typeof doc>[]>((r) => setTimeout(() => r([doc(id, 1, id)]), 30));
    const answers = { a: slow('1'), b: slow('2'), c: slow('3') };
    const parallel = await runHds(
      'q',
      { retrievalConcurrency: 2 },
      deps(new ScriptedLlm([block('a; b; c'), '\\boxed{x}']), new KeyedRetriever(answers)),
    );
    const [ra, rb, rc] = parallel.turns[0].retrievals;
    expect(rb.startMs).toBeLessThan(ra.endMs); // a and b overlap
    expect(rc.startMs).toBeGreaterThanOrEqual(Math.min(ra.endMs, rb.endMs)); // c waits for a free lane
    const sequential = await runHds(
      'q',
      { retrievalConcurrency: 1 },
      deps(new ScriptedLlm([block('a; b'), '\\boxed{x}']), new KeyedRetriever(answers)),
    );
    const [sa, sb] = sequential.turns[0].retrievals;
    expect(sb.startMs).toBeGreaterThanOrEqual(sa.endMs);
  });

  it('uses the injected clock for offsets', async () => {
    let t = 1000;
    const now = () => (t += 10);
    const run = await runHds('q', {}, deps(new ScriptedLlm(['\\boxed{x}']), new KeyedRetriever({}), { now }));
    // t0 = 1010; each later reading adds 10.
    expect(run.turns[0].llm.startMs).toBe(20);
    expect(run.turns[0].llm.endMs).toBeGreaterThan(run.turns[0].llm.startMs);
    expect(run.durationMs).toBeGreaterThan(run.turns[0].llm.endMs);
  });
});

describe('live events', () => {
  it('reports turns, deltas, queries, retrievals and one done event', async () => {
    const events: HdsEvent[] = [];
    const llm = new ScriptedLlm([{ content: block('a; b'), reasoning: 'r', pieceChars: 5 }, '\\boxed{x}']);
    const run = await runHds('q', {}, deps(llm, new KeyedRetriever({}, [doc('1', 1, 't')])), {
      onEvent: (e) => events.push(e),
    });
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run-start');
    expect(types.at(-1)).toBe('done');
    expect(types.filter((t) => t === 'done')).toHaveLength(1);
    expect(types.filter((t) => t === 'turn-start')).toHaveLength(2);
    const deltas = events.filter((e) => e.type === 'llm-delta' && e.turn === 1);
    // The stream is what the server sent: it stopped at the end marker (H9), which the record puts back.
    expect(deltas.map((e) => (e.type === 'llm-delta' ? e.content : '')).join('')).toBe(block('a; b').replace('<|end search queries|>', ''));
    const turnEnd = events.find((e) => e.type === 'turn-end' && e.turn === 1);
    expect(turnEnd?.type === 'turn-end' && turnEnd.record.llm.response).toBe(block('a; b'));
    expect(deltas.map((e) => (e.type === 'llm-delta' ? e.reasoning : '')).join('')).toBe('r');
    const queries = events.find((e) => e.type === 'queries');
    expect(queries).toMatchObject({ turn: 1, executed: ['a', 'b'], repeated: [], cutByBudget: [], k: 3 });
    expect(types.filter((t) => t === 'retrieval-start')).toHaveLength(2);
    expect(types.filter((t) => t === 'retrieval-end')).toHaveLength(2);
    expect(types.indexOf('queries')).toBeLessThan(types.indexOf('retrieval-start'));
    expect(types.lastIndexOf('retrieval-end')).toBeLessThan(types.indexOf('turn-end'));
    const done = events.at(-1);
    expect(done?.type === 'done' && done.run).toBe(run);
  });

  it('a throwing listener does not break the run', async () => {
    const run = await runHds('q', {}, deps(new ScriptedLlm(['\\boxed{x}']), new KeyedRetriever({})), {
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    expect(run.answer).toBe('x');
  });
});

describe('H7 cancellation', () => {
  it('stops the LLM stream at once and returns the partial run as cancelled', async () => {
    const controller = new AbortController();
    const llm = new ScriptedLlm([
      block('a'),
      { content: 'partial answer that never ends', pieceChars: 8, pieceDelayMs: 20 },
      '\\boxed{unused}',
    ]);
    const events: HdsEvent[] = [];
    const run = await runHds('q', {}, deps(llm, new KeyedRetriever({}, [doc('1', 1, 't')])), {
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'llm-delta' && e.turn === 2) controller.abort();
      },
    });
    expect(run.status).toBe('cancelled');
    expect(run.terminatedBy).toBe('cancelled');
    expect(run.turns).toHaveLength(2);
    expect(run.turns[0].status).toBe('complete');
    expect(run.turns[1].status).toBe('cancelled');
    expect(run.turns[1].llm.cancelled).toBe(true);
    expect(run.turns[1].llm.response).toBe('partial ');
    expect(run.fallback).toBeUndefined();
    expect(llm.prompts).toHaveLength(2);
    expect(events.at(-1)).toEqual({ type: 'done', run });
  });

  it('stops pending retrievals at once, even when the retriever ignores the signal', async () => {
    const controller = new AbortController();
    const never = () => new Promise<never>(() => undefined);
    const retriever = new KeyedRetriever({ fast: [doc('1', 1, 't')], slow: never });
    const started = performance.now();
    const run = await runHds('q', { retrievalConcurrency: 1 }, deps(new ScriptedLlm([block('fast; slow; later')]), retriever), {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'retrieval-start' && e.query === 'slow') controller.abort();
      },
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(run.status).toBe('cancelled');
    expect(run.turns[0].retrievals.map((r) => r.status)).toEqual(['ok', 'cancelled', 'cancelled']);
    expect(retriever.calls.map((c) => c[0])).toEqual(['fast', 'slow']); // "later" never started
    expect(run.turns[0].status).toBe('cancelled');
  });

  it('stops an LLM call that ignores the signal', async () => {
    const controller = new AbortController();
    const llm: LlmProvider = {
      describe: () => ({ provider: 'x', baseUrl: '', model: 'm' }),
      complete: () => new Promise(() => undefined),
    };
    setTimeout(() => controller.abort(), 20);
    const run = await runHds('q', {}, deps(llm, new KeyedRetriever({})), { signal: controller.signal });
    expect(run.status).toBe('cancelled');
    expect(run.turns[0].llm.cancelled).toBe(true);
  });

  it('an already-aborted signal gives an empty cancelled run without calls', async () => {
    const controller = new AbortController();
    controller.abort();
    const llm = new ScriptedLlm(['\\boxed{x}']);
    const run: HdsRun = await runHds('q', {}, deps(llm, new KeyedRetriever({})), { signal: controller.signal });
    expect(run.status).toBe('cancelled');
    expect(run.turns).toEqual([]);
    expect(llm.prompts).toEqual([]);
  });
});
