// Recipes from the browser's stores: export what a run was made with, check a recipe against a corpus here.
import {
  corpusDifferences,
  formatRecipe,
  makeRecipe,
  modelDifferences,
  recipeCorpus,
  recipeModels,
  recipeOfRun,
  type PipelineSpec,
  type Recipe,
  type RecipeExperiment,
  type RunEnvironment,
  type RunRecord,
} from '../../core/index.ts';
import { getCorpusStore, getVectorStore } from '../services/stores.ts';

async function storedCorpus(corpusId: string) {
  const corpora = await getCorpusStore();
  const corpus = await corpora.getCorpus(corpusId);
  if (!corpus) throw new Error('The corpus of this run is no longer stored, so the recipe cannot describe it.');
  return { corpora, corpus };
}

/** The recipe file of a saved run. */
export async function runRecipeText(record: RunRecord): Promise<string> {
  const { corpora, corpus } = await storedCorpus(record.corpusId);
  if (record.pipeline.kind === 'imported') throw new Error('An imported TREC run has no pipeline, so it has no recipe.');
  const models = await recipeModels(await getVectorStore(), corpus.id, record.pipeline as PipelineSpec, record.environment);
  return formatRecipe(recipeOfRun(record, await recipeCorpus(corpora, corpus), models));
}

/** The recipe file of a sweep or an HDS batch. */
export async function experimentRecipeText(name: string, corpusId: string, experiment: RecipeExperiment, environment?: RunEnvironment): Promise<string> {
  const { corpora, corpus } = await storedCorpus(corpusId);
  const models = await recipeModels(await getVectorStore(), corpus.id, experiment.pipeline, environment);
  return formatRecipe(makeRecipe(name, experiment, await recipeCorpus(corpora, corpus), models, environment));
}

/** Every way the corpus here (and its embedding sets) differs from what the recipe was made on; empty when none. */
export async function recipeDifferences(recipe: Recipe, corpusId: string): Promise<string[]> {
  const { corpora, corpus } = await storedCorpus(corpusId);
  const differences = corpusDifferences(recipe.corpus, await recipeCorpus(corpora, corpus));
  const vectors = await getVectorStore();
  for (const model of recipe.models) {
    const set = await vectors.getSet(corpus.id, model.modelKey);
    differences.push(
      ...modelDifferences(model, set && set.complete ? { modelKey: set.modelKey, maxTokens: set.maxTokens, files: set.modelFiles ?? [] } : undefined),
    );
  }
  return differences;
}
