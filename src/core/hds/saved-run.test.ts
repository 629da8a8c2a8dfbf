import { describe, expect, it } from 'vitest';
import { runHds } from './run-hds.ts';
import { formatAgentRunsFile, parseAgentRunsFile, stripSecrets, type SavedQuestionRun } from './saved-run.ts';
import { KeyedRetriever, ScriptedLlm } from './test-doubles.ts';
import { scoreAgentRun } from './question-metrics.ts';

const KEY = 'sk-live-1234567890abcdef';

async function savedRun(): Promise<SavedQuestionRun> {
  const run = await runHds('q', {}, { llm: new ScriptedLlm(['\\boxed{x}']), retriever: new KeyedRetriever({}) });
  return {
    id: 'r1',
    type: 'question',
    name: 'a run',
    corpusId: 'c1',
    corpusName: 'Corpus',
    createdAt: 1,
    updatedAt: 2,
    status: 'completed',
    llm: { provider: 'openai-compatible', baseUrl: 'http://x/v1', model: 'm', temperature: 0 },
    retriever: { spec: { kind: 'bm25', params: { k1: 0.9, b: 0.4, d: 0, termCountBoost: false } }, label: 'BM25' },
    method: 'hds',
    relevance: { key: 1, token: 2 },
    metrics: scoreAgentRun(run),
    run,
  };
}

describe('stripSecrets', () => {
  it('drops credential fields at any depth and keeps everything else', () => {
    const value = {
      apiKey: KEY,
      config: { api_key: KEY, OPENAI_API_KEY: KEY, Authorization: `Bearer ${KEY}`, clientSecret: 's', temperature: 0.2 },
      list: [{ accessToken: 't', tokens: 5, tokenUsage: { totalTokens: 3 } }],
      relevance: { key: 1, token: 2 }, // document ids named like words stay
    };
    expect(stripSecrets(value)).toEqual({
      config: { temperature: 0.2 },
      list: [{ tokens: 5, tokenUsage: { totalTokens: 3 } }],
      relevance: { key: 1, token: 2 },
    });
    expect(value.apiKey).toBe(KEY); // the input is not changed
  });

  it('replaces a known secret wherever it appears in a string', () => {
    const value = { notes: `my key is ${KEY}.`, nested: [[`${KEY}${KEY}`]], [KEY]: 1 };
    expect(stripSecrets(value, [KEY])).toEqual({ notes: 'my key is [redacted].', nested: [['[redacted][redacted]']], '[redacted]': 1 });
    expect(stripSecrets({ a: 'abc' }, ['', 'ab'])).toEqual({ a: 'abc' }); // too short to be a key: left alone
  });
});

describe('the run file', () => {
  it('exports runs without the key, even one slipped into a config, and reads them back', async () => {
    const run = await savedRun();
    const leaky = { ...run, llm: { ...run.llm, apiKey: KEY }, run: { ...run.run, config: { ...(run.run.config as object), apiKey: KEY } } } as SavedQuestionRun;
    (leaky.run as { error?: string }).error = `HTTP 401 for key ${KEY}`;
    const text = formatAgentRunsFile([leaky], [KEY], new Date('2026-01-02T03:04:05Z'));
    expect(text).not.toContain(KEY);
    expect(text).not.toMatch(/apiKey/i);
    const [back] = parseAgentRunsFile(text);
    expect(back).toMatchObject({ id: 'r1', type: 'question', relevance: { key: 1, token: 2 } });
    expect((back as SavedQuestionRun).run.error).toBe('HTTP 401 for key [redacted]');
    expect(JSON.parse(text)).toMatchObject({ format: 'dsw-agent-runs', version: 1, exportedAt: '2026-01-02T03:04:05.000Z' });
  });

  it('says in words why a file cannot be imported', async () => {
    expect(() => parseAgentRunsFile('not json')).toThrow('This file is not JSON, so it is not an exported run file.');
    expect(() => parseAgentRunsFile('{"runs": []}')).toThrow('This JSON file is not an exported run file (expected "format": "dsw-agent-runs").');
    expect(() => parseAgentRunsFile('{"format": "dsw-agent-runs", "version": 2, "runs": []}')).toThrow('Unsupported run file version 2');
    const run = await savedRun();
    const broken = formatAgentRunsFile([{ ...run, run: { ...run.run, turns: undefined } } as unknown as SavedQuestionRun]);
    expect(() => parseAgentRunsFile(broken)).toThrow('Run 1 of the file is damaged: the HDS run has no turns.');
  });
});
