import 'fake-indexeddb/auto';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus, MemoryCorpusStore, OKAPI_BM25, type HdsRun, type LlmProviderSettings, type PipelineSpec, type TransformersModule } from '../core/index.ts';
import { fileSource } from '../cli/node-sources.ts';
import { IdbAgentRunStore, IdbSettingsStore, openWorkbenchDb } from '../storage/index.ts';
import { OpenAiTestServer, type RecordedRequest, type ScriptedReply } from '../test-support/openai-test-server.ts';
import { HdsJobs } from './hds-jobs.ts';
import { batchLockName } from '../core/index.ts';
import type { HdsWorkerEvent } from './hds-worker-api.ts';

const KEY = 'sk-test-0123456789-SECRET';
const sample = path.resolve(import.meta.dirname, '../../sample-data/meridian');
const spec: PipelineSpec = { kind: 'bm25', params: OKAPI_BM25 };
const Q = (q: string) => `<|begin search queries|>${q}<|end search queries|>`;

let corpora: MemoryCorpusStore;
let corpusId: string;
let index: Awaited<ReturnType<typeof loadCorpus>>['index'];
let servers: OpenAiTestServer[] = [];
let dbCount = 0;

beforeAll(async () => {
  corpora = new MemoryCorpusStore();
  const files = await Promise.all(['corpus.jsonl', 'queries.jsonl', 'qrels/test.tsv'].map((f) => fileSource(path.join(sample, f), sample)));
  const loaded = await loadCorpus(files, { name: 'Meridian' }, corpora);
  corpusId = loaded.corpus.id;
  index = loaded.index;
});

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function setup(options: ConstructorParameters<typeof OpenAiTestServer>[0]) {
  const server = new OpenAiTestServer(options);
  servers.push(server);
  const baseUrl = await server.start();
  const db = await openWorkbenchDb(`hds-jobs-${++dbCount}`);
  const settings = new IdbSettingsStore(db);
  const runs = new IdbAgentRunStore(db, () => settings.secrets());
  await settings.saveLlmSettings({ kind: 'openai-compatible', presetId: 'custom', baseUrl, model: 'test-model', apiKey: KEY });
  const locks: string[] = [];
  const jobs = new HdsJobs({
    corpora,
    runs,
    resources: () => ({ bm25Index: async () => index }),
    withLock: async (name, work) => {
      locks.push(name);
      return work();
    },
    clock: () => 1_700_000_000_000,
  });
  const provider: LlmProviderSettings = { kind: 'openai-compatible', presetId: 'custom', baseUrl, model: 'test-model', apiKey: KEY, temperature: 0 };
  return { server, runs, jobs, provider, locks };
}

const promptOf = (request: RecordedRequest): string => request.body.messages[0].content;

describe('HdsJobs.runQuestion', () => {
  it('runs a corpus question over BM25 with the test server, marks gold passages, scores and saves it without the key', async () => {
    const { server, runs, jobs, provider } = await setup({
      replies: [
        { reasoning: 'Find the engineer first.', content: Q('who designed Harrow Point Light; Harrow Point Light engineer'), chunkChars: 7 },
        { content: Q('Edmund Carrow scholarship college') },
        { content: 'It was \\boxed{Margery Fennick}.' },
      ],
    });
    const events: HdsWorkerEvent[] = [];
    const saved = await jobs.runQuestion(
      { corpusId, spec, provider, method: 'hds', settings: { hds: {} }, question: 'Who founded the college attended by the engineer who designed the Harrow Point lighthouse?', questionId: 'mh01' },
      (e) => events.push(e),
    );
    expect(saved).toMatchObject({ type: 'question', status: 'completed', questionId: 'mh01', answers: ['Margery Fennick'], corpusName: 'Meridian' });
    expect(saved.llm).toEqual({ provider: 'openai-compatible', baseUrl: provider.kind === 'openai-compatible' ? provider.baseUrl : '', model: 'test-model', temperature: 0, streamLimits: { maxResponseChars: 16_000_000, idleTimeoutMs: 120_000 } });
    expect(saved.metrics).toMatchObject({ em: 1, f1: 1, turns: 3, searchCalls: 3 });
    const run = saved.run as HdsRun;
    expect(run.turns[0]!.queriesExecuted).toEqual(['who designed Harrow Point Light', 'Harrow Point Light engineer']);
    const first = run.turns[0]!.retrievals[0]!;
    expect(first.results).toHaveLength(3);
    expect(first.results[0]).toMatchObject({ id: 'm033', relevance: 1, title: 'Harrow Point Light' });
    expect(first.results[0]!.text.startsWith('Harrow Point Light. Harrow Point Light stands on the highest part')).toBe(true);
    expect(run.retrievedIds).toEqual(expect.arrayContaining(['m033', 'm036']));
    expect(saved.metrics.evidenceRecall).toBeCloseTo(2 / 3, 10); // m033 and m036 of {m033, m036, m096}
    // Streamed events reached the listener: 7-character content pieces of turn 1, and the retrievals.
    const deltas = events.flatMap((e) => (e.type === 'run' && e.event.type === 'llm-delta' && e.event.turn === 1 ? [e.event.content] : []));
    // The server stopped at the end marker (H9): the stream has the block without it; the record puts it back.
    expect(deltas.join('')).toBe(Q('who designed Harrow Point Light; Harrow Point Light engineer').replace('<|end search queries|>', ''));
    expect(deltas.filter((d) => d !== '').length).toBeGreaterThan(5);
    expect(events.filter((e) => e.type === 'run' && e.event.type === 'retrieval-end')).toHaveLength(3);
    // The key went to the server in the Authorization header only, and nowhere into what was stored.
    expect(server.chatRequests()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.chatRequests()[0]!.rawBody).not.toContain(KEY);
    expect(JSON.stringify(await runs.get(saved.id))).not.toContain(KEY);
    expect((await runs.list(corpusId)).map((s) => s.id)).toEqual([saved.id]);
  });

  it('saves a cancelled run with its partial response, and refuses a second job meanwhile', async () => {
    const { runs, jobs, provider } = await setup({ replies: [{ content: 'Thinking slowly about the harbour and its lights '.repeat(4), chunkChars: 4, writeDelayMs: 30 }] });
    let cancelled = false;
    const controller = new AbortController();
    const pending = jobs.runQuestion({ corpusId, spec, provider, method: 'hds', settings: {}, question: 'Anything?' }, (e) => {
      if (!cancelled && e.type === 'run' && e.event.type === 'llm-delta' && e.event.content !== '') {
        cancelled = true;
        controller.abort();
      }
    }, controller.signal);
    await expect(jobs.runQuestion({ corpusId, spec, provider, method: 'hds', settings: {}, question: 'x' })).rejects.toThrow('Another run is in progress');
    const saved = await pending;
    expect(saved.status).toBe('cancelled');
    const run = saved.run as HdsRun;
    expect(run.terminatedBy).toBe('cancelled');
    expect(run.turns[0]!.llm.cancelled).toBe(true);
    expect(run.turns[0]!.llm.response.length).toBeGreaterThan(0);
    expect(run.turns[0]!.llm.response.length).toBeLessThan(100);
    expect((await runs.get(saved.id))?.status).toBe('cancelled');
  });

  it('rejects invalid settings without saving anything', async () => {
    const { runs, jobs, provider } = await setup({});
    await expect(jobs.runQuestion({ corpusId, spec, provider, method: 'hds', settings: { hds: { maxTurns: 0 } }, question: 'q' })).rejects.toThrow('max_turns must be >= 1');
    expect(await runs.list()).toEqual([]);
  });
});

describe('HdsJobs with the in-browser provider', () => {
  // A stand-in for transformers.js's pipeline: it records the chat each call was given and answers at once.
  function fakeTransformers() {
    const chats: Array<Array<{ role: string; content: string }>> = [];
    let loads = 0;
    const module = {
      env: {},
      TextStreamer: class {
        constructor(
          readonly tokenizer: unknown,
          readonly opts: { callback_function(text: string): void },
        ) {}
      },
      InterruptableStoppingCriteria: class {
        interrupt() {}
      },
      async pipeline() {
        loads++;
        const generator = async (messages: Array<{ role: string; content: string }>, kwargs: { streamer: { opts: { callback_function(text: string): void } } }) => {
          chats.push(messages);
          kwargs.streamer.opts.callback_function('\\boxed{Margery Fennick}');
          return [{ generated_text: [...messages, { role: 'assistant', content: '\\boxed{Margery Fennick}' }] }];
        };
        generator.tokenizer = { apply_chat_template: () => [1, 2, 3] };
        return generator;
      },
    };
    return { module: module as unknown as TransformersModule, chats, loads: () => loads };
  }

  it('sends the system message as the first turn of the HDS calls, saves it with the run, and keeps the model loaded when only it changes', async () => {
    const fake = fakeTransformers();
    const db = await openWorkbenchDb(`hds-jobs-${++dbCount}`);
    const runs = new IdbAgentRunStore(db, async () => []);
    const jobs = new HdsJobs({ corpora, runs, resources: () => ({ bm25Index: async () => index }), host: { transformers: async () => fake.module }, clock: () => 1_700_000_000_000 });
    const model: LlmProviderSettings = { kind: 'transformers', modelId: 'org/tiny-chat', device: 'wasm', maxTokens: 32 };
    expect(await jobs.testConnection(model)).toEqual({ ok: true, message: 'Loaded org/tiny-chat (wasm, q4).' });
    const question = 'Who founded the college attended by the engineer who designed the Harrow Point lighthouse?';
    const saved = await jobs.runQuestion({ corpusId, spec, provider: { ...model, systemPrompt: ' Search first. ' }, method: 'hds', settings: { hds: {} }, question });
    expect(fake.loads()).toBe(1);
    expect(fake.chats[0]!.map((m) => m.role)).toEqual(['system', 'user']);
    expect(fake.chats[0]![0]!.content).toBe('Search first.');
    expect(fake.chats[0]![1]!.content).toContain(question);
    expect(saved.llm).toEqual({ provider: 'transformers.js', baseUrl: '', model: 'org/tiny-chat', maxTokens: 32, systemPrompt: 'Search first.', systemPromptScope: 'hds-plan' });
    expect((saved.run as HdsRun).turns[0]!.llm.systemPrompt).toBe('Search first.');
    // Without it: one user message, as the reference.
    await jobs.runQuestion({ corpusId, spec, provider: model, method: 'hds', settings: { hds: {} }, question });
    expect(fake.chats[1]!.map((m) => m.role)).toEqual(['user']);
    expect(fake.loads()).toBe(1);
  });
});

describe('HdsJobs batches', () => {
  const answerFor = (request: RecordedRequest): ScriptedReply => {
    const prompt = promptOf(request);
    if (prompt.includes('Harrow Point lighthouse')) return { content: '\\boxed{Margery Fennick}' };
    if (prompt.includes('Vennick Skerry')) return { content: '\\boxed{Port Avel}', writeDelayMs: 20, chunkChars: 3 };
    return { content: '\\boxed{unknown}' };
  };

  it('saves progress after every question, survives a cancel, and resumes with the same model only', async () => {
    const { runs, jobs, provider, locks } = await setup({ respond: answerFor });
    const variants = [{ id: 'hds', label: 'HDS', method: 'hds' as const, settings: { hds: {} } }];
    let startedId = '';
    const controller = new AbortController();
    const first = await jobs.runBatch({ corpusId, spec, provider, variants, questionIds: ['mh01', 'mh02'] }, (e) => {
      if (e.type === 'batch-started') startedId = e.run.id;
      if (e.type === 'batch-item') controller.abort(); // cancel during the second question
    }, controller.signal);
    expect(first.id).toBe(startedId);
    expect(locks).toEqual([batchLockName(first.id)]);
    expect(first.status).toBe('cancelled');
    expect(first.items.map((i) => [i.questionId, i.answer, i.em])).toEqual([['mh01', 'Margery Fennick', 1]]);
    expect((await runs.get(first.id))).toMatchObject({ status: 'cancelled', items: [{ questionId: 'mh01' }] });

    const other = { ...provider, model: 'another-model' };
    await expect(jobs.resumeBatch(first.id, other)).rejects.toThrow('This batch was run with the model “test-model”');

    const progress: string[] = [];
    const resumed = await jobs.resumeBatch(first.id, provider, (e) => {
      if (e.type === 'batch-progress') progress.push(`${e.progress.done}/${e.progress.total}`);
    });
    expect(resumed.status).toBe('completed');
    expect(progress).toEqual(['1/2', '2/2']);
    // mh02's gold answer is Saltmere: EM 0 for "Port Avel".
    expect(resumed.items.map((i) => [i.questionId, i.em])).toEqual([
      ['mh01', 1],
      ['mh02', 0],
    ]);
    expect(resumed.aggregates).toEqual([expect.objectContaining({ variantId: 'hds', questions: 2, em: 0.5 })]);
    const stored = await runs.get(first.id);
    expect(stored).toMatchObject({ status: 'completed', questions: [{ id: 'mh01' }, { id: 'mh02' }] });
    expect(JSON.stringify(stored)).not.toContain(KEY);
    await expect(jobs.resumeBatch(first.id, provider)).rejects.toThrow('This batch is already complete.');
  });

  it('runs every question with answers by default and says so when there are none', async () => {
    const { jobs, provider } = await setup({ respond: () => ({ content: '\\boxed{x}' }) });
    const variants = [{ id: 'ss', label: 'Single-shot', method: 'single-shot' as const, settings: {} }];
    const batch = await jobs.runBatch({ corpusId, spec, provider, variants });
    expect(batch.questions).toHaveLength(22);
    expect(batch.questions.every((q) => q.id.startsWith('mh') && q.answers.length > 0)).toBe(true);
    expect(batch.items).toHaveLength(22);
    await expect(jobs.runBatch({ corpusId, spec, provider, variants, questionIds: ['q01'] })).rejects.toThrow('has no questions with gold answers');
  });
});
