// The whole HDS loop over real HTTP: the OpenAI-compatible provider against the scripted test server.
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiTestServer, type ScriptedReply } from '../../test-support/openai-test-server.ts';
import { OpenAiCompatibleProvider } from '../llm/index.ts';
import { runHds } from './run-hds.ts';
import type { HdsEvent, RetrievedPassage, TextRetriever } from './types.ts';

const KEY = 'sk-loop-SECRET-42';
const CORPUS = [
  { id: 'd1', text: 'The giant impact hypothesis says a Mars-sized body named Theia hit the early Earth.' },
  { id: 'd2', text: 'Lunar rock composition closely matches Earth mantle isotopes.' },
  { id: 'd3', text: 'The Moon formation debris disk coalesced within a century.' },
  { id: 'd4', text: 'Basalt is a common volcanic rock.' },
];

/** Scores documents by the number of distinct query words they contain. */
class WordOverlapRetriever implements TextRetriever {
  readonly calls: string[] = [];
  async search(text: string, k: number): Promise<RetrievedPassage[]> {
    this.calls.push(text);
    const words = new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
    return CORPUS.map((d) => ({
      id: d.id,
      text: d.text,
      score: new Set((d.text.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => words.has(w))).size,
    }))
      .filter((d) => d.score > 0)
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, k);
  }
}

const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function provider(replies: ScriptedReply[]) {
  server = new OpenAiTestServer({ replies });
  const baseUrl = await server.start();
  return new OpenAiCompatibleProvider({ baseUrl, model: 'hds-test', apiKey: KEY, retryBaseDelayMs: 1 });
}

describe('HDS loop over HTTP', () => {
  it('runs a scripted 3-turn conversation: spaces tokens, underscore tokens with a repeat, boxed answer', async () => {
    const llm = await provider([
      {
        reasoning: 'I need evidence about the formation and the rocks.',
        content: '<|begin search queries|>Moon formation; lunar rock composition<|end search queries|>',
        chunkChars: 4,
        usage,
      },
      {
        reasoning: 'Check the impactor.',
        content: '<|begin_search_queries|>giant impact Theia;\nlunar rock composition<|end_search_queries|>',
        chunkChars: 5,
        writeBytes: 7,
        usage,
      },
      { content: 'Answer: \\boxed{\\text{A giant impact with Theia}}', chunkChars: 3, usage },
    ]);
    const retriever = new WordOverlapRetriever();
    const events: HdsEvent[] = [];
    const run = await runHds(
      'How did the Moon form?',
      { kPerQuery: 2, evidenceBudget: 1 },
      { llm, retriever, relevance: (id) => (id === 'd1' ? 1 : undefined) },
      { onEvent: (e) => events.push(e) },
    );

    expect(run.status).toBe('completed');
    expect(run.answer).toBe('A giant impact with Theia');
    expect(run.terminatedBy).toBe('answer');
    expect(run.llm).toEqual({ provider: 'openai-compatible', baseUrl: expect.stringMatching(/\/v1$/), model: 'hds-test', streamLimits: { maxResponseChars: 16_000_000, idleTimeoutMs: 120_000 } });
    expect(retriever.calls).toEqual(['Moon formation', 'lunar rock composition', 'giant impact Theia']);
    expect(run.searchCallsUsed).toBe(3);
    expect(run.tokenUsage).toEqual({ promptTokens: 300, completionTokens: 60, totalTokens: 360 });
    expect(run.turns.map((t) => t.llm.reasoning)).toEqual([
      'I need evidence about the formation and the rocks.',
      'Check the impactor.',
      '',
    ]);
    expect(run.turns[1].tokenSpelling).toBe('underscores');
    expect(run.turns[1].queriesRepeated).toEqual([{ query: 'lunar rock composition', firstTurn: 1 }]);
    expect(run.turns[1].retrievals[0].results[0]).toMatchObject({ id: 'd1', shown: true, relevance: 1 });

    const prompts = server!.chatRequests().map((r) => r.body.messages[0].content as string);
    expect(prompts).toHaveLength(3);
    expect(prompts[0]).toContain('Turn: 1/3\nRemaining search calls: 8\nInteraction log:\n(none)');
    expect(prompts[1]).toContain('Turn: 2/3\nRemaining search calls: 6');
    expect(prompts[1]).toContain(
      '<|begin search results|>\nMoon formation: The Moon formation debris disk coalesced within a century.\n' +
        'lunar rock composition: Lunar rock composition closely matches Earth mantle isotopes.\n<|end search results|>',
    );
    expect(prompts[2]).toContain('Remaining search calls: 5');
    expect(prompts[2]).toContain(
      '<|begin_search_results|>\ngiant impact Theia: The giant impact hypothesis says a Mars-sized body named Theia hit the early Earth.\n' +
        'lunar rock composition: [already searched in turn 1]\n<|end_search_results|>',
    );
    // Reasoning streamed separately is not part of the log sent back.
    expect(prompts[2]).not.toContain('Check the impactor.');

    const deltas = events.filter((e) => e.type === 'llm-delta' && e.turn === 1);
    expect(deltas.length).toBeGreaterThan(5);
    for (const request of server!.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(request.rawBody).not.toContain(KEY);
    }
    expect(JSON.stringify(run)).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);
  });

  it('cancelling during a streamed turn keeps the partial run (H7)', async () => {
    const llm = await provider([
      { content: '<|begin search queries|>Moon formation<|end search queries|>', usage },
      { content: 'I am still writing a very long answer…', chunkChars: 1, writeDelayMs: 15 },
    ]);
    const controller = new AbortController();
    let seen = 0;
    const run = await runHds('How did the Moon form?', {}, { llm, retriever: new WordOverlapRetriever() }, {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'llm-delta' && e.turn === 2 && ++seen === 3) controller.abort();
      },
    });
    expect(run.status).toBe('cancelled');
    expect(run.turns[1].llm.cancelled).toBe(true);
    expect(run.turns[1].llm.response).toBe('I a');
    expect(run.turns[0].status).toBe('complete');
    expect(run.tokenUsage.totalTokens).toBe(120);
  });

  it('the plan guard ends a streamed reply that loops, runs its one query and goes on; off, the same reply runs to its end', async () => {
    const loop = `<|begin search queries|>giant impact Theia; ${'Moon formation; '.repeat(60)}`;
    const script = (): ScriptedReply[] => [
      { content: loop, chunkChars: 4, writeDelayMs: 1, finishReason: 'length', usage },
      { content: '\\boxed{Theia}', usage },
    ];
    const retriever = new WordOverlapRetriever();
    const guarded = await runHds('How did the Moon form?', { planGuard: 'loops' }, { llm: await provider(script()), retriever });
    const turn = guarded.turns[0];
    expect(turn.llm.endedBy).toBe('repetition');
    expect(turn.llm.finishReason).toBeUndefined(); // the call was ended before the server finished
    expect(turn.llm.guard).toMatchObject({ rule: 'repetition', text: expect.stringContaining('Moon formation') });
    expect(turn.llm.guard!.received.length).toBeLessThan(loop.length / 2);
    expect(turn.llm.response).toBe('<|begin search queries|>giant impact Theia; Moon formation<|end search queries|>');
    expect(retriever.calls).toEqual(['giant impact Theia', 'Moon formation']);
    expect(guarded.interactionLog[0]).toBe(turn.llm.response);
    expect(guarded.answer).toBe('Theia');
    expect(guarded.config.planGuard).toBe('loops');
    await server!.close();

    const off = await runHds('How did the Moon form?', {}, { llm: await provider(script()), retriever: new WordOverlapRetriever() });
    expect(off.config.planGuard).toBe('off');
    expect(off.turns[0].llm).toMatchObject({ endedBy: 'max_tokens', finishReason: 'length', response: loop });
    expect(off.turns[0].llm.guard).toBeUndefined();
  });
});
