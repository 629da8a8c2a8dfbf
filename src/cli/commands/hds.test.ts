import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRunsFile, HdsRun, SavedBatchRun, SavedQuestionRun } from '../../core/index.ts';
import { OpenAiTestServer, type RecordedRequest, type ScriptedReply } from '../../test-support/openai-test-server.ts';
import { main } from '../main.ts';
import { captureIo, type CapturedIo } from '../../test-support/capture-io.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataset = path.join(root, 'sample-data/meridian');
const KEY = 'sk-cli-test-key-987654321';
const Q = (q: string) => `<|begin search queries|>${q}<|end search queries|>`;
const MH01 = 'Who founded the college attended by the engineer who designed the Harrow Point lighthouse?';

let server: OpenAiTestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function capture(env: Record<string, string> = {}): CapturedIo {
  return captureIo(root, env);
}

async function start(options: ConstructorParameters<typeof OpenAiTestServer>[0]): Promise<string> {
  server = new OpenAiTestServer(options);
  return server.start();
}

const tmpFile = (name: string) => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-hds-')), name);

describe('dsw hds', () => {
  it('runs one dataset question against an OpenAI-compatible server, prints EM/F1/evidence recall and writes the run without the key', async () => {
    const baseUrl = await start({
      replies: [
        { content: Q('who designed Harrow Point Light; Harrow Point Light engineer'), usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } },
        { content: Q('Edmund Carrow scholarship college'), usage: { prompt_tokens: 300, completion_tokens: 10, total_tokens: 310 } },
        { content: '\\boxed{Margery Fennick}', usage: { prompt_tokens: 400, completion_tokens: 5, total_tokens: 405 } },
      ],
    });
    const out = tmpFile('run.json');
    const io = capture({ DSW_TEST_KEY: KEY });
    const code = await main(
      ['hds', '--dataset', dataset, '--question', MH01, '--base-url', baseUrl, '--model', 'test-model', '--api-key-env', 'DSW_TEST_KEY', '--temperature', '0', '--out', out],
      io,
    );
    expect(io.stderr).not.toContain(KEY);
    expect(code).toBe(0);
    const lines = io.stdout.split('\n');
    expect(lines[0]).toMatch(/^question\s+method\s+EM\s+F1\s+EvR\s+turns\s+searches\s+seconds\s+answer$/);
    // Gold supporting passages of mh01: m033, m036, m096; the queries reach the first two.
    expect(lines[2]).toMatch(/^mh01\s+hds\s+1\.000\s+1\.000\s+0\.667\s+3\s+3\s+\d+\.\d\d\s+Margery Fennick$/);
    expect(io.stdout).toMatch(/\nhds\s+1\s+0\s+1\.000\s+1\.000\s+0\.667\s+3\.00\s+3\.00\s+\d+\.\d\d\s+835\n/);
    expect(server!.chatRequests().map((r: RecordedRequest) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`, `Bearer ${KEY}`]);

    const text = fs.readFileSync(out, 'utf8');
    expect(text).not.toContain(KEY);
    const file = JSON.parse(text) as AgentRunsFile;
    expect(file.format).toBe('dsw-agent-runs');
    const [saved] = file.runs as SavedQuestionRun[];
    expect(saved).toMatchObject({ type: 'question', method: 'hds', status: 'completed', questionId: 'mh01', answers: ['Margery Fennick'] });
    expect(saved!.llm).toEqual({ provider: 'openai-compatible', baseUrl, model: 'test-model', temperature: 0, streamLimits: { maxResponseChars: 16_000_000, idleTimeoutMs: 120_000 } });
    expect(saved!.retriever.spec).toEqual({ kind: 'bm25', params: { k1: 0.9, b: 0.4, d: 0, termCountBoost: false } });
    const run = saved!.run as HdsRun;
    expect(run.turns[0]!.retrievals[0]!.results[0]).toMatchObject({ id: 'm033', relevance: 1 });
  });

  it('runs dataset questions with baselines and prints one comparison row per method', async () => {
    const respond = (request: RecordedRequest): ScriptedReply => {
      const prompt: string = request.body.messages[0].content;
      const harrow = prompt.includes('Harrow Point lighthouse');
      if (prompt.startsWith('Answer the question using the paragraphs')) return { content: harrow ? 'Margery Fennick' : 'Oldwick' };
      return { content: harrow ? '\\boxed{Margery Fennick}' : '\\boxed{Saltmere}' };
    };
    const baseUrl = await start({ respond });
    const out = tmpFile('batch.json');
    const io = capture();
    const code = await main(
      ['hds', '--dataset', dataset, '--questions-from-dataset', '--question-ids', 'mh01,mh02', '--baselines', 'single-shot', '--base-url', baseUrl, '--model', 'm', '--max-turns', '2', '--out', out, '--json'],
      io,
    );
    expect(code).toBe(0);
    const printed = JSON.parse(io.stdout) as { items: Array<{ questionId: string; variantId: string; em: number }>; aggregates: Array<{ variantId: string; em: number; questions: number }> };
    expect(printed.items.map((i) => [i.questionId, i.variantId, i.em])).toEqual([
      ['mh01', 'hds', 1],
      ['mh01', 'single-shot', 1],
      ['mh02', 'hds', 1],
      ['mh02', 'single-shot', 0],
    ]);
    expect(printed.aggregates.map((a) => [a.variantId, a.questions, a.em])).toEqual([
      ['hds', 2, 1],
      ['single-shot', 2, 0.5],
    ]);
    expect(io.stderr).toContain('[1/4] mh01 hds');
    const batch = (JSON.parse(fs.readFileSync(out, 'utf8')) as AgentRunsFile).runs[0] as SavedBatchRun;
    expect(batch).toMatchObject({ type: 'batch', status: 'completed' });
    expect(batch.questions.map((q) => q.id)).toEqual(['mh01', 'mh02']);
    expect(batch.variants.map((v) => v.id)).toEqual(['hds', 'single-shot']);
    expect(batch.variants[0]!.settings.hds).toEqual({ maxTurns: 2 });
    expect(batch.items).toHaveLength(4);
  });

  it('never prints or writes the API key when the model echoes it: stdout (table and --json), stderr, the run file', async () => {
    const echo = (request: RecordedRequest): ScriptedReply => {
      const prompt: string = request.body.messages[0].content;
      // Plan turn 1 searches for the key; the final prompt and any later turn answer with it.
      if (prompt.includes('Turn: 1/')) return { content: Q(`lighthouse ${KEY}`), chunkChars: 5, writeBytes: 9 };
      return { content: `<think>the header had ${KEY}</think>The key is ${KEY}. \\boxed{${KEY}}`, chunkChars: 4 };
    };
    for (const json of [false, true]) {
      await server?.close();
      const baseUrl = await start({ respond: echo });
      const out = tmpFile('echo.json');
      const io = capture({ DSW_TEST_KEY: KEY });
      const code = await main(
        ['hds', '--dataset', dataset, '--question', MH01, '--base-url', baseUrl, '--model', 'test-model', '--api-key-env', 'DSW_TEST_KEY', '--max-turns', '1', '--out', out, ...(json ? ['--json'] : [])],
        io,
      );
      expect(code).toBe(0);
      expect(io.stdout).toContain('[redacted]');
      expect(io.stdout).not.toContain(KEY);
      expect(io.stderr).not.toContain(KEY);
      const text = fs.readFileSync(out, 'utf8');
      expect(text).not.toContain(KEY);
      const run = (JSON.parse(text) as AgentRunsFile).runs[0] as SavedQuestionRun;
      expect(run.run.answer).toBe('[redacted]');
    }
  });

  it('--system-prompt-file sends the file as the system message of the HDS calls only (never the baselines\'), and records which calls got it', async () => {
    type Messages = Array<{ role: string; content: string }>;
    const respond = (request: RecordedRequest): ScriptedReply => {
      const user = (request.body.messages as Messages).at(-1)!.content;
      return { content: user.includes('Turn: 1/') ? Q('Harrow Point Light engineer') : 'So the answer is \\boxed{Margery Fennick}' };
    };
    const baseUrl = await start({ respond });
    const system = tmpFile('system.txt');
    fs.writeFileSync(system, '  Write queries or a boxed answer.\n');
    const out = tmpFile('run.json');
    const io = capture();
    const code = await main(['hds', '--dataset', dataset, '--question', MH01, '--base-url', baseUrl, '--model', 'm', '--system-prompt-file', system, '--baselines', 'single-shot,ircot,decomposition', '--out', out], io);
    expect(code).toBe(0);
    const messages = server!.chatRequests().map((r) => (r.body as { messages: Messages }).messages);
    const hds = messages.filter((m) => m[0]!.role === 'system');
    const baselines = messages.filter((m) => m[0]!.role !== 'system');
    expect(hds.length).toBeGreaterThanOrEqual(2);
    for (const m of hds) {
      expect(m).toHaveLength(2);
      expect(m[0]).toEqual({ role: 'system', content: 'Write queries or a boxed answer.' });
      expect(m[1]!.content).toContain('Remaining search calls:');
    }
    expect(baselines.length).toBeGreaterThanOrEqual(3);
    for (const m of baselines) {
      expect(m.map((x) => x.role)).toEqual(['user']);
      expect(m[0]!.content).not.toContain('Remaining search calls:');
    }
    const saved = (JSON.parse(fs.readFileSync(out, 'utf8')) as AgentRunsFile).runs as SavedQuestionRun[];
    expect(saved.map((r) => r.method).sort()).toEqual(['decomposition', 'hds', 'ircot', 'single-shot']);
    for (const { llm, run } of saved) {
      expect(llm.systemPrompt).toBe('Write queries or a boxed answer.');
      expect(llm.systemPromptScope).toBe('hds-plan');
      const calls = run.kind === 'hds' ? [...run.turns.map((t) => t.llm), ...(run.fallback ? [run.fallback] : [])] : run.llmCalls;
      expect(calls.length).toBeGreaterThan(0);
      for (const c of calls) expect(c.systemPrompt).toBe(run.kind === 'hds' ? 'Write queries or a boxed answer.' : undefined);
    }
  });

  it('H9–H12 settings: stop sequences on plan calls, the forced \\boxed{ pre-fill without the system message, sampling passed through and saved, the oracle context', async () => {
    type Messages = Array<{ role: string; content: string }>;
    const respond = (request: RecordedRequest): ScriptedReply => {
      const messages = request.body.messages as Messages;
      if (messages.at(-1)!.role === 'assistant') return { content: 'Margery Fennick} and more' };
      const user = messages.at(-1)!.content;
      return { content: user.includes('Turn: 1/') ? Q('Harrow Point Light engineer') : user.includes('Turn:') ? 'I am not sure yet.' : 'Margery Fennick' };
    };
    const baseUrl = await start({ respond });
    const system = tmpFile('system.txt');
    fs.writeFileSync(system, 'Search first.');
    const out = tmpFile('run.json');
    const io = capture();
    const code = await main(['hds', '--dataset', dataset, '--question', MH01, '--base-url', baseUrl, '--model', 'm', '--system-prompt-file', system,
      '--max-turns', '1', '--temperature', '0.7', '--top-p', '0.8', '--repeat-penalty', '1.1', '--seed', '42', '--max-tokens', '300', '--assistant-prefill',
      '--prompt-variant', 'dsw-1', '--final-answer', 'boxed-prefix', '--baselines', 'oracle-context', '--out', out], io);
    expect(io.stdout).not.toContain('FAILED');
    expect(code).toBe(0);
    const requests = server!.chatRequests().map((r) => r.body as { messages: Messages; stop?: string[]; top_p?: number; repeat_penalty?: number; seed?: number; temperature?: number; max_tokens?: number; continue_final_message?: boolean });
    const plan = requests[0]!;
    expect(plan.stop).toEqual(['<|end search queries|>', '<|end_search_queries|>', '<|begin search results|>', '<|begin_search_results|>']);
    expect(plan).toMatchObject({ temperature: 0.7, top_p: 0.8, repeat_penalty: 1.1, seed: 42, max_tokens: 300 });
    expect(plan.messages[0]).toEqual({ role: 'system', content: 'Search first.' });
    expect(plan.messages[1]!.content).toContain('Reasoning: '); // the dsw-1 plan prompt
    const finals = requests.filter((r) => r.messages.at(-1)!.role === 'assistant');
    expect(finals).toHaveLength(2); // HDS's final prompt and the oracle's answer call
    for (const f of finals) {
      expect(f.messages.map((m) => m.role)).toEqual(['user', 'assistant']); // no system message (H10)
      expect(f.messages[1]!.content).toBe('\n</think>\n\n**Final Answer:**\n\\boxed{');
      expect(f.messages[0]!.content).toContain('\\boxed{YOUR_ANSWER}');
      expect(f.continue_final_message).toBe(true);
      expect(f.stop).toBeUndefined();
    }
    const saved = (JSON.parse(fs.readFileSync(out, 'utf8')) as AgentRunsFile).runs as SavedQuestionRun[];
    const hdsRun = saved.find((r) => r.method === 'hds')!;
    expect(hdsRun.llm).toMatchObject({ temperature: 0.7, topP: 0.8, repeatPenalty: 1.1, maxTokens: 300, assistantPrefill: true, systemPromptScope: 'hds-plan' });
    if (hdsRun.run.kind !== 'hds') throw new Error('expected an HDS run');
    expect(hdsRun.run.config).toMatchObject({ promptVariant: 'dsw-1', planStop: 'query-block', finalAnswer: 'boxed-prefix' });
    expect(hdsRun.run.answer).toBe('Margery Fennick');
    expect(hdsRun.run.fallback).toMatchObject({ finalAnswer: { requested: 'boxed-prefix', applied: 'boxed-prefix' }, marker: 'boxed', endedBy: 'end-of-turn' });
    expect(hdsRun.run.fallback!.systemPrompt).toBeUndefined();
    expect(hdsRun.metrics).toMatchObject({ em: 1, strictEm: 1, answerSource: 'marked' });
    const oracle = saved.find((r) => r.method === 'oracle-context')!;
    expect(oracle.run.answer).toBe('Margery Fennick');
    expect(oracle.metrics.evidenceRecall).toBe(1); // it is given the gold passages
    expect(oracle.run.kind !== 'hds' && oracle.run.llmCalls[0]!.prompt).toContain('Margery Fennick'); // a gold passage's text
  });

  it('--question-search-k searches the question before turn 1 and --final-context passages reads what was shown; both are saved', async () => {
    type Messages = Array<{ role: string; content: string }>;
    const prompts: string[] = [];
    const respond = (request: RecordedRequest): ScriptedReply => {
      const user = (request.body.messages as Messages).at(-1)!.content;
      prompts.push(user);
      return { content: user.includes('Turn:') ? Q('Edmund Carrow scholarship college') : '\\boxed{Margery Fennick}' };
    };
    const baseUrl = await start({ respond });
    const out = tmpFile('run.json');
    const io = capture();
    const code = await main(['hds', '--dataset', dataset, '--question', MH01, '--base-url', baseUrl, '--model', 'm', '--max-turns', '1',
      '--question-search-k', '4', '--final-context', 'passages', '--out', out], io);
    expect(io.stdout).not.toContain('FAILED');
    expect(code).toBe(0);
    const [saved] = (JSON.parse(fs.readFileSync(out, 'utf8')) as AgentRunsFile).runs as SavedQuestionRun[];
    if (saved!.run.kind !== 'hds') throw new Error('expected an HDS run');
    const run = saved!.run;
    expect(run.config).toMatchObject({ questionSearchK: 4, finalContext: 'passages' });
    expect(run.protocol.extensions).toContain('question-search');
    expect(run.questionSearch!.retrievals[0]!).toMatchObject({ query: MH01, k: 4, status: 'ok' });
    const questionIds = run.questionSearch!.retrievals[0]!.results.map((r) => r.id);
    expect(questionIds).toHaveLength(4);
    // The first plan prompt reads the question's results block; the final prompt gives those passages first.
    expect(prompts[0]).toContain(`${MH01}: ${run.questionSearch!.retrievals[0]!.results[0]!.text.slice(0, 40)}`);
    expect(run.fallback!.contextIds!.slice(0, 4)).toEqual(questionIds);
    expect(run.searchCallsUsed).toBe(2);
    expect(saved!.metrics.searchCalls).toBe(2);
    expect(await main(['hds', '--dataset', dataset, '--question', MH01, '--base-url', baseUrl, '--model', 'm', '--question-search-k', '-1'], capture())).toBe(2);
  });

  it('--plan-guard loops ends a looping plan reply over HTTP, saves the setting and the cut; a bad value exits 2', async () => {
    const looping = `<|begin search queries|>Edmund Carrow scholarship college; ${'Margery Fennick; '.repeat(50)}`;
    const baseUrl = await start({ respond: (request) => ({ content: JSON.stringify(request.body.messages).includes('Turn:') ? looping : '\\boxed{Margery Fennick}', chunkChars: 5, finishReason: 'length' }) });
    const out = tmpFile('run.json');
    const io = capture();
    expect(await main(['hds', '--dataset', dataset, '--question', MH01, '--base-url', baseUrl, '--model', 'm', '--max-turns', '1', '--plan-guard', 'loops', '--out', out], io)).toBe(0);
    const [saved] = (JSON.parse(fs.readFileSync(out, 'utf8')) as AgentRunsFile).runs as SavedQuestionRun[];
    if (saved!.run.kind !== 'hds') throw new Error('expected an HDS run');
    expect(saved!.run.config.planGuard).toBe('loops');
    expect(saved!.run.protocol.extensions).toContain('plan-guard');
    const llm = saved!.run.turns[0]!.llm;
    expect(llm).toMatchObject({ endedBy: 'repetition', guard: { rule: 'repetition' } });
    expect(saved!.run.turns[0]!.queriesExecuted).toEqual(['Edmund Carrow scholarship college', 'Margery Fennick']);
    expect(await main(['hds', '--dataset', dataset, '--question', MH01, '--base-url', baseUrl, '--model', 'm', '--plan-guard', 'on'], capture())).toBe(2);
  });

  it('--baselines-only runs only the baselines; --passage-chars cuts the passages they see and is recorded', async () => {
    const baseUrl = await start({ respond: () => ({ content: 'So the answer is \\boxed{Margery Fennick}' }) });
    const out = tmpFile('run.json');
    const io = capture();
    const code = await main(['hds', '--dataset', dataset, '--question', MH01, '--base-url', baseUrl, '--model', 'm', '--baselines', 'single-shot', '--baselines-only', '--passage-chars', '40', '--out', out], io);
    expect(code).toBe(0);
    const saved = (JSON.parse(fs.readFileSync(out, 'utf8')) as AgentRunsFile).runs as SavedQuestionRun[];
    expect(saved.map((r) => r.method)).toEqual(['single-shot']);
    expect(saved[0]!.retriever.passageChars).toBe(40);
    const run = saved[0]!.run;
    if (run.kind === 'hds') throw new Error('expected a baseline run');
    const texts = run.retrievals.flatMap((r) => r.results.map((x) => x.text));
    expect(texts.length).toBeGreaterThan(0);
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(40);
    expect(texts.some((t) => t.endsWith('…'))).toBe(true);
    const prompt = (server!.chatRequests()[0]!.body as { messages: Array<{ content: string }> }).messages[0]!.content;
    expect(prompt).toContain(texts.find((t) => t.endsWith('…'))!);
    const bad = capture();
    expect(await main(['hds', '--dataset', dataset, '--question', MH01, '--base-url', baseUrl, '--model', 'm', '--baselines-only', '--out', out], bad)).toBe(2);
    expect(bad.stderr).toBe('dsw hds: --baselines-only needs --baselines <names>\n');
  });

  it('an unreadable or empty --system-prompt-file is named', async () => {
    const empty = tmpFile('empty.txt');
    fs.writeFileSync(empty, ' \n');
    for (const [file, message] of [[empty, `dsw hds: --system-prompt-file ${empty}: the file is empty\n`], ['/nonexistent/s.txt', 'dsw hds: --system-prompt-file /nonexistent/s.txt: cannot read it (ENOENT)\n']]) {
      const io = capture();
      expect(await main(['hds', '--dataset', dataset, '--question', 'q', '--base-url', 'http://x/v1', '--model', 'm', '--system-prompt-file', file!, '--out', 'x.json'], io)).toBe(2);
      expect(io.stderr).toBe(message);
    }
  });

  it('explains wrong usage in one line', async () => {
    const cases: Array<[string[], string]> = [
      [['hds', '--dataset', dataset, '--base-url', 'http://x/v1', '--model', 'm', '--out', 'x.json'], 'dsw hds: dsw hds needs either --question "<text>" or --questions-from-dataset\n'],
      [['hds', '--dataset', dataset, '--question', 'q', '--base-url', 'http://x/v1', '--out', 'x.json'], 'dsw hds: dsw hds needs --model <name>\n'],
      [['hds', '--dataset', dataset, '--question', 'q', '--base-url', 'http://x/v1', '--model', 'm', '--api-key-env', 'NOPE_UNSET', '--out', 'x.json'], 'dsw hds: The environment variable NOPE_UNSET (--api-key-env) is not set\n'],
      [['hds', '--dataset', dataset, '--question', 'q', '--base-url', 'http://x/v1', '--model', 'm', '--max-turns', '0', '--out', 'x.json'], 'dsw hds: --max-turns must be a whole number from 1 to 100, got "0"\n'],
      [['hds', '--dataset', dataset, '--question', 'q', '--base-url', 'http://x/v1', '--model', 'm', '--max-search-calls', '100000000000', '--out', 'x.json'], 'dsw hds: --max-search-calls must be a whole number from 1 to 10000, got "100000000000"\n'],
      [['hds', '--dataset', dataset, '--question', 'q', '--base-url', 'http://x/v1', '--model', 'm', '--temperature', '5', '--out', 'x.json'], 'dsw hds: --temperature must be a number from 0 to 2, got "5"\n'],
      [['hds', '--dataset', dataset, '--question', 'q', '--base-url', 'http://x/v1', '--model', 'm', '--max-tokens', '1.5', '--out', 'x.json'], 'dsw hds: --max-tokens must be a whole number from 1 to 1000000, got "1.5"\n'],
      [['hds', '--dataset', dataset, '--question', 'q', '--base-url', 'http://x/v1', '--model', 'm', '--idle-timeout', '0', '--out', 'x.json'], 'dsw hds: --idle-timeout must be a whole number from 1 to 86400, got "0"\n'],
      [['hds', '--dataset', dataset, '--question', 'q', '--base-url', 'http://x/v1', '--model', 'm', '--baselines', 'rag', '--out', 'x.json'], 'dsw hds: Unknown baseline "rag"; known: single-shot, ircot, decomposition, oracle-context\n'],
    ];
    for (const [args, message] of cases) {
      const io = capture();
      expect(await main(args, io)).toBe(2);
      expect(io.stderr).toBe(message);
    }
  });

  it('fails a question whose reply has no choice ("choices": []) instead of saving an empty answer, and saves the stream limits given', async () => {
    const baseUrl = await start({ respond: () => ({ raw: { contentType: 'text/event-stream', body: 'data: {"choices": []}\n\ndata: [DONE]\n\n' } }) });
    const out = tmpFile('empty-choices.json');
    const io = capture();
    const args = ['hds', '--dataset', dataset, '--question', MH01, '--base-url', baseUrl, '--model', 'm', '--max-response-chars', '5000', '--idle-timeout', '30', '--out', out];
    expect(await main(args, io)).toBe(1);
    expect(io.stdout).toMatch(/FAILED: .*"choices": \[\]/);
    const saved = (JSON.parse(fs.readFileSync(out, 'utf8')) as AgentRunsFile).runs[0] as SavedQuestionRun;
    expect(saved.status).toBe('failed');
    expect(saved.llm.streamLimits).toEqual({ maxResponseChars: 5000, idleTimeoutMs: 30_000 });
  });

  it('exits 1 and names the problem when the server cannot be reached', async () => {
    const baseUrl = await start({});
    await server!.close();
    server = null;
    const out = tmpFile('down.json');
    const io = capture();
    const code = await main(['hds', '--dataset', dataset, '--question', 'anything', '--base-url', baseUrl, '--model', 'm', '--out', out], io);
    expect(code).toBe(1);
    expect(io.stdout).toMatch(/FAILED: .*127\.0\.0\.1/);
    const saved = (JSON.parse(fs.readFileSync(out, 'utf8')) as AgentRunsFile).runs[0]!;
    expect(saved.status).toBe('failed');
  });
});
