// Sweep recipes: what the GQR lab exports, and the sweep request a recipe makes again (shared by the app and dsw sweep).
import type { GqrPipelineSpec } from '../retrieval/index.ts';
import { SweepGridError, validateGrid, type GridAxis } from '../sweep/index.ts';
import type { SavedSweep } from './saved-sweep.ts';
import { RecipeError, type Recipe, type RecipeExperiment } from './recipe.ts';

/** What a sweep recipe asks to run again. */
export interface SweepRecipeRequest {
  spec: GqrPipelineSpec;
  axes: GridAxis[];
  topK: number;
  measures: string[];
  /** The original's scores per grid point (point id → measure → mean); empty when the recipe has none. */
  pointMetrics: Record<string, Record<string, number>>;
}

/** The experiment part of a sweep's recipe, with every grid point's scores to check a re-run against. */
export function sweepRecipeExperiment(sweep: SavedSweep): Extract<RecipeExperiment, { kind: 'sweep' }> {
  const pointMetrics: Record<string, Record<string, number>> = {};
  sweep.points.forEach((point, i) => {
    const scores = sweep.evaluation.points[i];
    if (scores) pointMetrics[point.id] = { ...scores.aggregate };
  });
  return { kind: 'sweep', pipeline: structuredClone(sweep.spec), topK: sweep.topK, measures: [...sweep.evaluation.measures], axes: structuredClone(sweep.axes), pointMetrics };
}

/** The sweep a recipe describes; throws RecipeError naming the field when it is not a runnable GQR sweep. */
export function sweepRequestOfRecipe(recipe: Recipe): SweepRecipeRequest {
  const experiment = recipe.experiment as unknown as Record<string, unknown>;
  if (experiment.kind !== 'sweep') {
    throw new RecipeError(`This is a ${experiment.kind === 'run' ? 'run' : 'deep-search batch'} recipe, not a sweep recipe (field "experiment.kind" is ${JSON.stringify(experiment.kind)}).`);
  }
  const spec = experiment.pipeline as Record<string, unknown>;
  if (spec.kind !== 'gqr') throw new RecipeError(`Field "experiment.pipeline.kind" of a sweep recipe must be "gqr" (got ${JSON.stringify(spec.kind)})`);
  for (const part of ['primary', 'complementary', 'config'] as const) {
    const value = spec[part];
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new RecipeError(`Field "experiment.pipeline.${part}" must be an object`);
  }
  const topK = experiment.topK;
  if (typeof topK !== 'number' || !Number.isSafeInteger(topK) || topK < 1) throw new RecipeError('Field "experiment.topK" must be a positive whole number');
  const measures = experiment.measures;
  if (!Array.isArray(measures) || measures.length === 0 || !measures.every((m) => typeof m === 'string' && m !== '')) {
    throw new RecipeError('Field "experiment.measures" must be a non-empty list of measure names');
  }
  if (!Array.isArray(experiment.axes)) throw new RecipeError('Field "experiment.axes" must be a list of grid axes');
  const gqr = spec as unknown as GqrPipelineSpec;
  let axes: GridAxis[];
  try {
    axes = validateGrid(
      experiment.axes.map((axis, i) => {
        const a = axis as Record<string, unknown> | null;
        if (!a || typeof a !== 'object' || typeof a.key !== 'string' || !Array.isArray(a.values)) {
          throw new RecipeError(`Field "experiment.axes[${i}]" must be {"key": setting, "values": [...]}`);
        }
        return { key: a.key, values: a.values } as GridAxis;
      }),
      gqr.config,
    );
  } catch (error) {
    if (error instanceof SweepGridError) throw new RecipeError(`Field "experiment.axes": ${error.message}`);
    throw error;
  }
  const pointMetrics: Record<string, Record<string, number>> = {};
  if (experiment.pointMetrics !== undefined) {
    const all = experiment.pointMetrics;
    if (all === null || typeof all !== 'object' || Array.isArray(all)) throw new RecipeError('Field "experiment.pointMetrics" must be an object');
    for (const [pointId, values] of Object.entries(all)) {
      if (values === null || typeof values !== 'object' || Array.isArray(values)) throw new RecipeError(`Field "experiment.pointMetrics.${pointId}" must be an object`);
      pointMetrics[pointId] = {};
      for (const [m, v] of Object.entries(values)) {
        if (typeof v !== 'number' || !Number.isFinite(v)) throw new RecipeError(`Field "experiment.pointMetrics.${pointId}.${m}" must be a number`);
        pointMetrics[pointId][m] = v;
      }
    }
  }
  return { spec: structuredClone(gqr), axes, topK, measures: [...(measures as string[])], pointMetrics };
}
