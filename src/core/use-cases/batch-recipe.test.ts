import { describe, expect, it } from 'vitest';
import type { BatchVariant } from '../hds/index.ts';
import { batchRequestOfRecipe, llmDifferences } from './batch-recipe.ts';
import { formatRecipe, makeRecipe, parseRecipe, type RecipeCorpus } from '../runs/index.ts';

const corpus: RecipeCorpus = {
  name: 'Sample',
  documentCount: 2,
  checksum: null,
  analyzer: { lowercase: true, stopWords: 'english', stemming: 'porter' },
  queryCount: 1,
  qrelCount: 1,
  queriesChecksum: `sha256:${'1'.repeat(64)}`,
  qrelsChecksum: `sha256:${'0'.repeat(64)}`,
};
const variants: BatchVariant[] = [
  { id: 'hds', label: 'HDS', method: 'hds', settings: { hds: { maxTurns: 3 } } } as BatchVariant,
  { id: 'single-shot', label: 'Single shot', method: 'single-shot', settings: {} } as BatchVariant,
];
const spec = { kind: 'bm25', params: { k1: 0.9, b: 0.4, d: 0, termCountBoost: false } } as const;
const llm = { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:0.5b', temperature: 0 };

function recipeText(): string {
  return formatRecipe(makeRecipe('HDS vs baselines', { kind: 'hds-batch', pipeline: spec, variants, llm, questionIds: ['q1', 'q2'] }, corpus, []));
}

describe('deep-search batch recipes', () => {
  it('a batch recipe read back asks for the same retriever, variants and questions, on the corpus here, named as a re-run', () => {
    const request = batchRequestOfRecipe(parseRecipe(recipeText()), 'corpus-here');
    expect(request).toEqual({ corpusId: 'corpus-here', spec, variants, questionIds: ['q1', 'q2'], name: 'HDS vs baselines (re-run)', llm });
    // No key travels with the recipe: the batch runs with the provider configured here.
    expect(recipeText()).not.toMatch(/apiKey/i);
  });

  it('refuses a sweep recipe, an unknown method and an empty question list, naming the field', () => {
    const changed = (change: (r: Record<string, any>) => void) => {
      const r = JSON.parse(recipeText());
      change(r);
      return () => batchRequestOfRecipe(parseRecipe(JSON.stringify(r)), 'c');
    };
    expect(changed((r) => (r.experiment.kind = 'sweep'))).toThrow('This is a sweep recipe, not a deep-search batch recipe');
    expect(changed((r) => (r.experiment.variants[1].method = 'react'))).toThrow('Field "experiment.variants[1].method" must be one of hds, single-shot, ircot, decomposition');
    expect(changed((r) => (r.experiment.variants[1].id = 'hds'))).toThrow('two variants share an id');
    expect(changed((r) => (r.experiment.questionIds = []))).toThrow('Field "experiment.questionIds"');
    expect(changed((r) => delete r.experiment.llm)).toThrow('Field "experiment.llm"');
  });

  it('says how the model configured here differs from the recipe’s LLM', () => {
    const same = { kind: 'openai-compatible' as const, presetId: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1/', model: 'qwen2.5:0.5b', temperature: 0, apiKey: 'secret' };
    expect(llmDifferences(llm, same)).toEqual([]);
    expect(llmDifferences(llm, { ...same, model: 'llama3', temperature: undefined })).toEqual([
      "The recipe's LLM is qwen2.5:0.5b; the model settings here use llama3.",
      'The recipe sampled at temperature 0; here the server default.',
    ]);
    expect(llmDifferences(llm, { kind: 'transformers', modelId: 'onnx-community/Qwen2.5-0.5B-Instruct', device: 'auto', temperature: 0 })[0]).toBe(
      "The recipe's LLM ran on openai-compatible; the model settings here use transformers.js.",
    );
    // H11: every sampling setting and the pre-fill are compared too.
    const authors = { ...llm, topP: 0.8, repeatPenalty: 1.1, assistantPrefill: true };
    expect(llmDifferences(authors, { ...same, topP: 0.8, repeatPenalty: 1.1, assistantPrefill: true })).toEqual([]);
    expect(llmDifferences(authors, { ...same, topP: 0.9 })).toEqual([
      "The recipe's top p was 0.8; here 0.9.",
      "The recipe's repeat penalty was 1.1; here the server default.",
      "The recipe's server continued a pre-filled answer; here it is set not to.",
    ]);
  });
});
