import { describe, expect, it } from 'vitest';
import {
  exportAgentRuns,
  importAgentRuns,
  runBatchItems,
  runHds,
  scoreAgentRun,
  type AgentRunStore,
  type BatchQuestion,
  type BatchVariant,
  type LlmProvider,
  type SavedAgentRun,
  type SavedBatchRun,
  type SavedQuestionRun,
  type SettingsStore,
} from '../core/index.ts';

const KEY = 'sk-proj-TOPSECRET-4242';

/** A run store and the settings store whose keys it scrubs, sharing one fresh database. */
export interface AgentRunStores {
  runs: AgentRunStore;
  settings: SettingsStore;
}

const llm = (replies: string[]): LlmProvider => ({
  describe: () => ({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }),
  complete: async () => ({ content: replies.shift() ?? '\\boxed{none}', reasoning: '' }),
});
const retriever = { search: async () => [{ id: 'd1', score: 1, text: 'passage' }] };
const spec = { kind: 'bm25' as const, params: { k1: 0.9, b: 0.4, d: 0, termCountBoost: false } };

export async function questionRun(id: string, corpusId = 'c1', createdAt = 1): Promise<SavedQuestionRun> {
  const run = await runHds('Who?', {}, { llm: llm(['\\boxed{Ada}']), retriever });
  return {
    id,
    type: 'question',
    name: `run ${id}`,
    corpusId,
    corpusName: 'Corpus',
    createdAt,
    updatedAt: createdAt,
    status: 'completed',
    llm: { ...run.llm, temperature: 0 },
    retriever: { spec, label: 'BM25' },
    method: 'hds',
    answers: ['Ada'],
    metrics: scoreAgentRun(run, { answers: ['Ada'] }),
    run,
  };
}

/** Behaviour every AgentRunStore and SettingsStore pair must have. */
export function describeAgentRunStoreContract(label: string, fresh: () => Promise<AgentRunStores>): void {
  describe(`${label} (AgentRunStore and SettingsStore contract)`, () => {
    it('saves, lists newest first by corpus, renames and deletes runs', async () => {
      const { runs: store } = await fresh();
      await store.save(await questionRun('a', 'c1', 10));
      await store.save(await questionRun('b', 'c1', 20));
      await store.save(await questionRun('c', 'c2', 30));
      expect((await store.list('c1')).map((s) => s.id)).toEqual(['b', 'a']);
      expect((await store.list()).map((s) => s.id)).toEqual(['c', 'b', 'a']);
      expect((await store.list('c1'))[0]).toMatchObject({ type: 'question', method: 'hds', detail: 'Who?', model: 'm', status: 'completed' });
      await store.rename('a', '  first  ');
      expect((await store.get('a'))?.name).toBe('first');
      await expect(store.rename('a', ' ')).rejects.toThrow('A run name cannot be empty');
      await store.delete('b');
      await store.deleteCorpusRuns('c2');
      expect((await store.list()).map((s) => s.id)).toEqual(['a']);
    });

    it('keeps the API key in the settings store only, per preset', async () => {
      const { settings: store } = await fresh();
      await store.saveLlmSettings({ kind: 'openai-compatible', presetId: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt', apiKey: KEY });
      expect((await store.getLlmSettings())?.active).toMatchObject({ presetId: 'openai', apiKey: KEY });
      // Switching to a local preset does not carry the key along, and the OpenAI key is still there for later.
      const stored = await store.getLlmSettings();
      await store.saveLlmSettings({ kind: 'openai-compatible', presetId: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'qwen' }, stored!.apiKeys);
      const local = await store.getLlmSettings();
      expect(local?.active).not.toHaveProperty('apiKey');
      expect(local?.apiKeys).toEqual({ openai: KEY });
      expect(await store.secrets()).toEqual([KEY]);
      // An emptied key is forgotten.
      await store.saveLlmSettings({ kind: 'openai-compatible', presetId: 'openai', baseUrl: 'u', model: 'm', apiKey: '' }, local!.apiKeys);
      expect(await store.secrets()).toEqual([]);
    });

    it('keeps the settings of the providers not in use, without their keys', async () => {
      const { settings: store } = await fresh();
      const custom = { kind: 'openai-compatible' as const, presetId: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', maxTokens: 64, apiKey: KEY };
      await store.saveLlmSettings({ kind: 'openai-compatible', presetId: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'qwen' }, { custom: KEY }, { custom });
      const stored = await store.getLlmSettings();
      expect(stored?.others).toEqual({ custom: { kind: 'openai-compatible', presetId: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', maxTokens: 64 } });
      expect(stored?.apiKeys).toEqual({ custom: KEY });
    });

    it('never saves or exports a key, even one put into a run by mistake', async () => {
      const { runs: store, settings } = await fresh();
      await settings.saveLlmSettings({ kind: 'openai-compatible', presetId: 'custom', baseUrl: 'http://x/v1', model: 'm', apiKey: KEY });
      const run = await questionRun('leaky');
      const leaky = {
        ...run,
        llm: { ...run.llm, apiKey: KEY },
        run: { ...run.run, config: { ...(run.run.config as object), apiKey: KEY, notes: `key=${KEY}` }, error: `401 with ${KEY}` },
      } as unknown as SavedAgentRun;
      await store.save(leaky);
      const saved = await store.get('leaky');
      expect(JSON.stringify(saved)).not.toContain(KEY);
      expect(JSON.stringify(saved)).not.toMatch(/apiKey/);
      const exported = await exportAgentRuns(store, await settings.secrets());
      expect(exported).not.toContain(KEY);
      expect(exported).toContain('"notes": "key=[redacted]"');
    });

    it('exports and imports runs; a taken id gets a new one and an imported running batch becomes resumable', async () => {
      const { runs: source } = await fresh();
      await source.save(await questionRun('q1'));
      const questions: BatchQuestion[] = [{ id: 'mh1', text: 'Who?', answers: ['Ada'], relevance: { d1: 1 } }];
      const variants: BatchVariant[] = [{ id: 'hds', label: 'HDS', method: 'hds', settings: {} }];
      const outcome = await runBatchItems(questions, variants, { llm: llm(['\\boxed{Ada}']), retriever });
      const batch: SavedBatchRun = {
        id: 'b1',
        type: 'batch',
        name: 'batch',
        corpusId: 'c1',
        corpusName: 'Corpus',
        createdAt: 5,
        updatedAt: 5,
        status: 'running',
        llm: { provider: 'openai-compatible', baseUrl: 'u', model: 'm' },
        retriever: { spec, label: 'BM25' },
        questions,
        variants,
        items: outcome.items,
        aggregates: [],
      };
      await source.save(batch);
      const file = await exportAgentRuns(source, [], ['b1', 'q1', 'missing']);
      expect(JSON.parse(file).runs.map((r: SavedAgentRun) => r.id)).toEqual(['b1', 'q1']);

      const { runs: target } = await fresh();
      await target.save(await questionRun('q1'));
      const imported = await importAgentRuns(target, file);
      expect(imported[0]).toMatchObject({ id: 'b1', status: 'cancelled' });
      expect(imported[1]!.id).not.toBe('q1');
      expect((await target.list()).map((s) => s.id).sort()).toEqual(['b1', 'q1', imported[1]!.id].sort());
      const summary = (await target.list()).find((s) => s.id === 'b1');
      expect(summary).toMatchObject({ type: 'batch', detail: '1 question(s) × 1 method(s)', progress: { done: 1, total: 1 } });
      await expect(importAgentRuns(target, '{"format":"other"}')).rejects.toThrow('not an exported run file');
    });
  });
}
