import { describe, expect, it } from 'vitest';
import { resolveGqrConfig } from '../gqr/index.ts';
import type { GqrPipelineSpec } from '../retrieval/index.ts';
import { expandGrid, type GridAxis } from '../sweep/index.ts';
import type { SavedSweep } from './saved-sweep.ts';
import { formatRecipe, makeRecipe, parseRecipe, RecipeError, type RecipeCorpus } from './recipe.ts';
import { sweepRecipeExperiment, sweepRequestOfRecipe } from './sweep-recipe.ts';

const spec: GqrPipelineSpec = {
  kind: 'gqr',
  primary: { kind: 'dense', modelKey: 'tiny-bert|fp32|mean', searchMode: 'single' } as unknown as GqrPipelineSpec['primary'],
  complementary: { kind: 'bm25', params: { k1: 0.9, b: 0.4 } } as unknown as GqrPipelineSpec['complementary'],
  config: resolveGqrConfig({ nSteps: 3 }),
};
const axes: GridAxis[] = [{ key: 'mixtureAlpha', values: [0, 0.5] }];
const points = expandGrid(axes, spec.config);
const sweep = {
  id: 's1',
  name: 'α two',
  corpusId: 'c',
  corpusName: 'Sample',
  createdAt: 0,
  spec,
  topK: 10,
  axes,
  points,
  evaluation: { measures: ['nDCG@10', 'R@100'], points: [{ aggregate: { 'nDCG@10': 0.25, 'R@100': 0.5 } }, { aggregate: { 'nDCG@10': 0.375, 'R@100': 0.75 } }] },
  queryCount: 2,
  elapsedMs: 1,
  childFallbacks: 0,
  runIds: {},
} as unknown as SavedSweep;
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

function recipeText(): string {
  return formatRecipe(makeRecipe(sweep.name, sweepRecipeExperiment(sweep), corpus, []));
}

describe('sweep recipes', () => {
  it('a sweep exported as a recipe and read back asks for the same GQR pipeline, grid, top k and measures, with each point’s scores', () => {
    const request = sweepRequestOfRecipe(parseRecipe(recipeText()));
    expect(request.spec).toEqual(spec);
    expect(request.axes).toEqual(axes);
    expect(request.topK).toBe(10);
    expect(request.measures).toEqual(['nDCG@10', 'R@100']);
    expect(request.pointMetrics).toEqual({ 'mixtureAlpha=0': { 'nDCG@10': 0.25, 'R@100': 0.5 }, 'mixtureAlpha=0.5': { 'nDCG@10': 0.375, 'R@100': 0.75 } });
    // The re-run's grid expands to the same point ids the scores are keyed by.
    expect(expandGrid(request.axes, request.spec.config).map((p) => p.id)).toEqual(Object.keys(request.pointMetrics));
  });

  it('a recipe exported before point scores were recorded still maps, with no scores to compare', () => {
    const r = JSON.parse(recipeText());
    delete r.experiment.pointMetrics;
    expect(sweepRequestOfRecipe(parseRecipe(JSON.stringify(r))).pointMetrics).toEqual({});
  });

  it('refuses a run recipe, a non-GQR pipeline and a damaged grid, naming the field', () => {
    const changed = (change: (r: Record<string, any>) => void) => {
      const r = JSON.parse(recipeText());
      change(r);
      return () => sweepRequestOfRecipe(parseRecipe(JSON.stringify(r)));
    };
    expect(changed((r) => (r.experiment = { kind: 'run', pipeline: { kind: 'bm25' }, k: 10, measures: ['nDCG@10'] }))).toThrow('This is a run recipe, not a sweep recipe');
    expect(changed((r) => (r.experiment.pipeline.kind = 'rrf'))).toThrow('Field "experiment.pipeline.kind" of a sweep recipe must be "gqr"');
    expect(changed((r) => (r.experiment.topK = 0))).toThrow('Field "experiment.topK" must be a positive whole number');
    expect(changed((r) => (r.experiment.measures = []))).toThrow('Field "experiment.measures"');
    expect(changed((r) => (r.experiment.axes = [{ key: 'mixtureAlpha', values: [0, 1.5] }]))).toThrow('Field "experiment.axes": mixtureAlpha=1.5');
    expect(changed((r) => (r.experiment.axes = [{ key: 'poolSize', values: [1] }]))).toThrow(RecipeError);
    expect(changed((r) => (r.experiment.axes = ['alpha']))).toThrow('Field "experiment.axes[0]"');
    expect(changed((r) => (r.experiment.pointMetrics['mixtureAlpha=0']['nDCG@10'] = 'high'))).toThrow('Field "experiment.pointMetrics.mixtureAlpha=0.nDCG@10" must be a number');
  });
});
