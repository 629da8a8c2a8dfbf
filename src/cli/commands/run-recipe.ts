// `dsw run --recipe`: makes a run recipe exported by the app (or the CLI) again on a dataset on disk.
import fs from 'node:fs';
import path from 'node:path';
import {
  corpusDifferences,
  modelDifferences,
  parseRecipe,
  RecipeError,
  recipeCorpus,
  runEnvironment,
  type PipelineSpec,
  type Recipe,
  type RetrievalResources,
  type RunEnvironmentSource,
} from '../../core/index.ts';
import { CliError, type CliIo } from '../io.ts';
import { loadDataset, type LoadedDataset } from '../load-dataset.ts';
import { buildPipelineFromOptions, type ModelOptions } from '../pipeline-options.ts';
import { nodeHostEnvironment } from '../node-environment.ts';

/** What a run needs from a recipe, after checking the dataset and model match it. */
export interface RecipeRun {
  recipe: Recipe;
  dataset: LoadedDataset;
  spec: PipelineSpec;
  k: number;
  measures: string[];
  resources: RetrievalResources;
  environment: ReturnType<typeof runEnvironment>;
}

/** Reads a recipe file; words for a missing, damaged or foreign file. */
export function readRecipeFile(cwd: string, file: string): Recipe {
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read the recipe ${file}: ${(error as Error).message}`);
  }
  try {
    return parseRecipe(text);
  } catch (error) {
    if (error instanceof RecipeError) throw new CliError(`${file} cannot be used as a recipe: ${error.message}`);
    throw error;
  }
}

/** The dataset and model a recipe was checked against, ready to retrieve with. */
export interface RecipeDataset {
  dataset: LoadedDataset;
  resources: RetrievalResources;
  environment: RunEnvironmentSource;
}

/**
 * Loads the dataset with the recipe's analyzer, embeds it with the recipe's model (from `--model`, or the model id
 * under `--models-dir`), and refuses with every difference listed when the corpus or the model files differ.
 */
export async function prepareRecipeDataset(recipe: Recipe, datasetDir: string, io: CliIo, models: ModelOptions, command: string): Promise<RecipeDataset> {
  if (recipe.models.length > 1) throw new CliError(`This recipe uses more than one embedding model; ${command} embeds one model.`);
  const dataset = await loadDataset(datasetDir, io, { analyzer: recipe.corpus.analyzer, documents: recipe.models.length > 0 ? 'memory' : 'stream' });
  const differences = corpusDifferences(recipe.corpus, await recipeCorpus(dataset.store, dataset.corpus));
  let resources: RetrievalResources = { bm25Index: async () => dataset.index };
  let source: RunEnvironmentSource = { host: nodeHostEnvironment() };
  const model = recipe.models[0];
  if (model && differences.length === 0) {
    const params = {
      dtype: model.model.dtype,
      pooling: model.model.pooling,
      queryPrefix: model.model.prefixes.query,
      passagePrefix: model.model.prefixes.passage,
      maxTokens: model.maxTokens,
      tokens: model.tokens,
    };
    const built = await buildPipelineFromOptions('dense', params, dataset, io, { ...models, model: models.model ?? model.model.modelId });
    const modelKey = built.spec.kind === 'dense' ? built.spec.modelKey : '';
    differences.push(...modelDifferences(model, { modelKey, maxTokens: model.maxTokens, files: built.environment.modelFiles?.[modelKey] ?? [] }));
    resources = built.resources;
    source = built.environment;
  }
  if (differences.length > 0) {
    throw new CliError(`The recipe “${recipe.name}” cannot be reproduced on ${datasetDir}:\n${differences.map((d) => `  - ${d}`).join('\n')}`);
  }
  return { dataset, resources, environment: source };
}

/** A run recipe checked against the dataset and model, ready to run. */
export async function prepareRecipeRun(recipe: Recipe, datasetDir: string, io: CliIo, models: ModelOptions): Promise<RecipeRun> {
  const { experiment } = recipe;
  if (experiment.kind !== 'run') throw new CliError(`This is a ${experiment.kind} recipe; dsw run makes run recipes (a run or one sweep point)${experiment.kind === 'sweep' ? ': use dsw sweep --recipe' : ''}.`);
  const { dataset, resources, environment: source } = await prepareRecipeDataset(recipe, datasetDir, io, models, 'dsw run');
  return {
    recipe,
    dataset,
    spec: experiment.pipeline,
    k: experiment.k,
    measures: experiment.measures,
    resources,
    environment: runEnvironment(source.host, experiment.pipeline, source.modelFiles),
  };
}
