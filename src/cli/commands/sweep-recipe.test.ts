import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatRecipe, labSweepsFromRuns, makeRecipe, parseRunsJson, recipeCorpus, summarizeRun, sweepRecipeExperiment } from '../../core/index.ts';
import { loadDataset } from '../load-dataset.ts';
import { main } from '../main.ts';
import { embedDataset } from '../pipeline-options.ts';
import { captureIo } from '../../test-support/capture-io.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataset = path.join(root, 'sample-data/meridian');
const model = path.join(root, 'public/models/tiny-bert');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-sweep-recipe-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A sweep made by dsw sweep, exported as a recipe with its corpus and model as the app would describe them. */
async function sweepRecipeFile(change: (recipe: Record<string, any>) => void = () => {}): Promise<string> {
  const saved = path.join(dir, 'sweep.json');
  const io = captureIo(root);
  expect(await main(['sweep', '--dataset', dataset, '--model', model, '--grid', 'mixtureAlpha=0,0.5', '--measures', 'nDCG@10', '--save-json', saved, '--name', 'α pair'], io)).toBe(0);
  const [sweep] = labSweepsFromRuns(parseRunsJson(fs.readFileSync(saved, 'utf8')).map(summarizeRun));
  const loaded = await loadDataset(dataset, captureIo(root), { documents: 'memory' });
  const { set, modelFiles } = await embedDataset(loaded, {}, captureIo(root), { model });
  const models = [{ modelKey: set.modelKey, model: set.model, maxTokens: set.maxTokens, tokens: set.tokens, files: modelFiles ?? [] }];
  const recipe = JSON.parse(formatRecipe(makeRecipe(sweep!.name, sweepRecipeExperiment(sweep!), await recipeCorpus(loaded.store, loaded.corpus), models)));
  change(recipe);
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.recipe.json`);
  fs.writeFileSync(file, JSON.stringify(recipe));
  return file;
}

describe('dsw sweep --recipe', () => {
  it('makes a sweep recipe again and prints each point’s measures beside the recipe’s', async () => {
    const file = await sweepRecipeFile();
    const recipe = JSON.parse(fs.readFileSync(file, 'utf8'));
    const io = captureIo(root);
    expect(await main(['sweep', '--recipe', file, '--dataset', dataset, '--model', model, '--json'], io)).toBe(0);
    const out = JSON.parse(io.stdout) as { points: { id: string; measures: Record<string, number> }[]; measures: string[] };
    expect(out.measures).toEqual(['nDCG@10']);
    expect(out.points.map((p) => p.id)).toEqual(['mixtureAlpha=0', 'mixtureAlpha=0.5']);
    for (const p of out.points) expect(Math.abs(p.measures['nDCG@10']! - recipe.experiment.pointMetrics[p.id]['nDCG@10']), p.id).toBeLessThan(1e-9);
    expect(io.stderr).toContain('Reproduced “α pair”');
    expect(io.stderr).toMatch(/α 0\.5: nDCG@10 0\.\d+ \(recipe 0\.\d+, difference /);
  }, 120_000);

  it('refuses a recipe of another corpus with every difference listed, and a run recipe', async () => {
    const other = await sweepRecipeFile((r) => {
      r.corpus.documentCount = 170;
      r.corpus.qrelsChecksum = `sha256:${'0'.repeat(64)}`;
    });
    const io = captureIo(root);
    expect(await main(['sweep', '--recipe', other, '--dataset', dataset, '--model', model], io)).toBe(2);
    expect(io.stderr).toContain("The recipe's corpus has 170 documents; this one has 168.");
    expect(io.stderr).toContain('The relevance judgements differ');
    const run = await sweepRecipeFile((r) => (r.experiment = { kind: 'run', pipeline: { kind: 'bm25' }, k: 10, measures: ['nDCG@10'] }));
    const io2 = captureIo(root);
    expect(await main(['sweep', '--recipe', run, '--dataset', dataset], io2)).toBe(2);
    expect(io2.stderr).toContain('cannot be used as a sweep recipe: This is a run recipe, not a sweep recipe');
    const io3 = captureIo(root);
    expect(await main(['sweep', '--recipe', run, '--dataset', dataset, '--grid', 'mixtureAlpha=0'], io3)).toBe(2);
    expect(io3.stderr).toContain('--grid cannot be combined with --recipe: the recipe fixes it');
  }, 120_000);
});
