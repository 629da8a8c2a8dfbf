// Deep-search batch recipes made again: the batch request a recipe describes, run with the provider configured
// here (a recipe never holds keys), and the ways that provider differs from the recipe's LLM.
import { samplingSettingsOf, type SamplingSettings, type LlmProviderSettings } from '../llm/index.ts';
import { AGENT_METHODS, type AgentMethod, type BatchVariant } from '../hds/index.ts';
import type { PipelineSpec } from '../retrieval/index.ts';
import type { BatchRequest } from './agent-runs.ts';
import { RecipeError, type Recipe } from '../runs/index.ts';

/** The LLM a batch recipe was made with. */
export type RecipeLlm = Extract<Recipe['experiment'], { kind: 'hds-batch' }>['llm'];

/** The batch a recipe describes, on a corpus here; throws RecipeError naming the field when it cannot be run. */
export function batchRequestOfRecipe(recipe: Recipe, corpusId: string): BatchRequest & { llm: RecipeLlm } {
  const experiment = recipe.experiment as unknown as Record<string, unknown>;
  if (experiment.kind !== 'hds-batch') {
    throw new RecipeError(`This is a ${experiment.kind === 'run' ? 'run' : 'sweep'} recipe, not a deep-search batch recipe (field "experiment.kind" is ${JSON.stringify(experiment.kind)}).`);
  }
  if (!Array.isArray(experiment.variants) || experiment.variants.length === 0) throw new RecipeError('Field "experiment.variants" must be a non-empty list');
  const variants = experiment.variants.map((value, i): BatchVariant => {
    const at = `experiment.variants[${i}]`;
    const v = value as Record<string, unknown> | null;
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new RecipeError(`Field "${at}" must be an object`);
    if (typeof v.id !== 'string' || !v.id) throw new RecipeError(`Field "${at}.id" must be a non-empty string`);
    if (typeof v.label !== 'string') throw new RecipeError(`Field "${at}.label" must be a string`);
    if (!AGENT_METHODS.includes(v.method as AgentMethod)) throw new RecipeError(`Field "${at}.method" must be one of ${AGENT_METHODS.join(', ')} (got ${JSON.stringify(v.method)})`);
    if (!v.settings || typeof v.settings !== 'object' || Array.isArray(v.settings)) throw new RecipeError(`Field "${at}.settings" must be an object`);
    return structuredClone(v) as unknown as BatchVariant;
  });
  const ids = new Set(variants.map((v) => v.id));
  if (ids.size !== variants.length) throw new RecipeError('Field "experiment.variants": two variants share an id');
  const questionIds = experiment.questionIds;
  if (!Array.isArray(questionIds) || questionIds.length === 0 || !questionIds.every((q) => typeof q === 'string' && q !== '')) {
    throw new RecipeError('Field "experiment.questionIds" must be a non-empty list of query ids');
  }
  const llm = experiment.llm as Record<string, unknown> | null;
  if (!llm || typeof llm !== 'object' || typeof llm.provider !== 'string' || typeof llm.baseUrl !== 'string' || typeof llm.model !== 'string') {
    throw new RecipeError('Field "experiment.llm" must hold the provider, baseUrl and model');
  }
  return {
    corpusId,
    spec: structuredClone(experiment.pipeline) as PipelineSpec,
    variants,
    questionIds: [...(questionIds as string[])],
    name: `${recipe.name} (re-run)`,
    llm: structuredClone(llm) as unknown as RecipeLlm,
  };
}

/** How the model configured here differs from the recipe's LLM: one sentence each, empty when the same. */
export function llmDifferences(recipe: RecipeLlm, here: LlmProviderSettings): string[] {
  const mine =
    here.kind === 'openai-compatible'
      ? { provider: 'openai-compatible', baseUrl: here.baseUrl, model: here.model, ...samplingSettingsOf(here), assistantPrefill: here.assistantPrefill === true }
      : { provider: 'transformers.js', baseUrl: '', model: here.modelId, temperature: here.temperature, maxTokens: here.maxTokens, assistantPrefill: false };
  const out: string[] = [];
  const bare = (url: string) => url.trim().replace(/\/+$/, '');
  if (mine.provider !== recipe.provider) out.push(`The recipe's LLM ran on ${recipe.provider}; the model settings here use ${mine.provider}.`);
  else if (bare(mine.baseUrl) !== bare(recipe.baseUrl)) out.push(`The recipe's LLM was served at ${recipe.baseUrl}; the model settings here use ${mine.baseUrl || 'no URL'}.`);
  if (mine.model !== recipe.model) out.push(`The recipe's LLM is ${recipe.model}; the model settings here use ${mine.model || 'no model'}.`);
  if (mine.temperature !== recipe.temperature) out.push(`The recipe sampled at temperature ${recipe.temperature ?? 'the server default'}; here ${mine.temperature ?? 'the server default'}.`);
  if (mine.maxTokens !== recipe.maxTokens) out.push(`The recipe's completion limit was ${recipe.maxTokens ?? 'the server default'} tokens; here ${mine.maxTokens ?? 'the server default'}.`);
  for (const [key, name] of [['topP', 'top p'], ['frequencyPenalty', 'frequency penalty'], ['presencePenalty', 'presence penalty'], ['repeatPenalty', 'repeat penalty'], ['seed', 'seed']] as const) {
    const a = (mine as SamplingSettings)[key];
    const b = recipe[key];
    if (a !== b) out.push(`The recipe's ${name} was ${b ?? 'the server default'}; here ${a ?? 'the server default'}.`);
  }
  if (mine.assistantPrefill !== (recipe.assistantPrefill === true)) {
    out.push(`The recipe's server ${recipe.assistantPrefill ? 'continued' : 'did not continue'} a pre-filled answer; here it is set ${mine.assistantPrefill ? 'to' : 'not to'}.`);
  }
  return out;
}
