import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bm25Retriever, buildQrelsMap, evaluateRun, labSweepsFromRuns, parseRunsJson, runQueries, summarizeRun } from '../../core/index.ts';
import { loadDataset } from '../load-dataset.ts';
import { main } from '../main.ts';
import { captureIo, type CapturedIo } from '../../test-support/capture-io.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataset = path.join(root, 'sample-data/meridian');
let model = path.join(root, 'public/models/tiny-bert');
let generated: string | null = null;

function capture(): CapturedIo {
  return captureIo(root);
}

beforeAll(() => {
  // `npm run gen:model` writes public/models/tiny-bert; generate a private copy when it has not run.
  if (!fs.existsSync(path.join(model, 'onnx/model.onnx'))) {
    generated = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-sweep-model-'));
    model = path.join(generated, 'tiny-bert');
    execFileSync(process.execPath, [path.join(root, 'scripts/make-tiny-model.mjs'), model], { stdio: 'pipe' });
  }
});

afterAll(() => {
  if (generated) fs.rmSync(generated, { recursive: true, force: true });
});

interface SweepJson {
  points: { id: string; settings: Record<string, unknown>; measures: Record<string, number>; versusPrimary: Record<string, { wins: number; ties: number; losses: number }>; paths: Record<string, number> }[];
  baselines: { name: string; measures: Record<string, number>; weight?: number }[];
  evaluatedQueries: number;
  measures: string[];
}

describe('dsw sweep', () => {
  it('prints one JSON row per grid point, with the baselines from the same child results', async () => {
    const io = capture();
    const args = ['sweep', '--dataset', dataset, '--pipeline', 'gqr', '--grid', 'mixtureAlpha=0,0.25,0.5,0.75,1', '--grid', 'target=per-step,fixed'];
    expect(await main([...args, '--model', model, '--measures', 'nDCG@10,R@100', '--json'], io)).toBe(0);
    const out = JSON.parse(io.stdout) as SweepJson;
    expect(out.measures).toEqual(['nDCG@10', 'R@100']);
    expect(out.points.map((p) => p.id)).toEqual([
      'mixtureAlpha=0,target=per-step',
      'mixtureAlpha=0,target=fixed',
      'mixtureAlpha=0.25,target=per-step',
      'mixtureAlpha=0.25,target=fixed',
      'mixtureAlpha=0.5,target=per-step',
      'mixtureAlpha=0.5,target=fixed',
      'mixtureAlpha=0.75,target=per-step',
      'mixtureAlpha=0.75,target=fixed',
      'mixtureAlpha=1,target=per-step',
      'mixtureAlpha=1,target=fixed',
    ]);
    const queries = out.evaluatedQueries;
    expect(queries).toBeGreaterThan(0);
    // Every candidate is embedded, so every query takes the cosine path.
    for (const point of out.points) expect(point.paths).toEqual({ single: 54, multi: 0, 'score-space': 0 });
    // α = 0 never moves the query: the top 10 are the dense top 10, a tie with the primary on every query.
    const primary = out.baselines.find((b) => b.name === 'primary')!;
    for (const point of out.points.slice(0, 2)) {
      expect(point.measures).toEqual(primary.measures);
      expect(point.versusPrimary['nDCG@10']).toEqual({ wins: 0, ties: queries, losses: 0 });
    }
    expect(out.baselines.map((b) => b.name)).toEqual(['primary', 'complementary', 'rrf', 'cc']);
    const cc = out.baselines.find((b) => b.name === 'cc')!;
    expect([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]).toContain(cc.weight);
    expect(io.stderr).toContain('Note: R@100 is computed over the 10 results kept per query (--top-k 10).');
    expect(io.stderr).toMatch(/54 queries × 10 grid points in [\d.]+ s/);

    // The complementary baseline is plain BM25 at top 10, as `dsw run` would score it.
    const loaded = await loadDataset(dataset, capture());
    const bm25 = await runQueries(new Bm25Retriever(loaded.index), await loaded.store.getQueries(loaded.corpus.id), 10);
    const expected = evaluateRun(buildQrelsMap(await loaded.store.getQrels(loaded.corpus.id)), bm25, ['nDCG@10', 'R@100']).aggregate;
    expect(out.baselines.find((b) => b.name === 'complementary')!.measures).toEqual(expected);
  });

  it('a grid point scores exactly what `dsw run --pipeline gqr` with its settings scores', async () => {
    const sweep = capture();
    expect(await main(['sweep', '--dataset', dataset, '--grid', 'mixtureAlpha=0.5,1', '--model', model, '--param', 'target=fixed', '--measures', 'nDCG@10,AP', '--json'], sweep)).toBe(0);
    const point = (JSON.parse(sweep.stdout) as SweepJson).points[0]!;
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-sweep-run-')), 'run.json');
    const run = capture();
    const args = ['run', '--dataset', dataset, '--pipeline', 'gqr', '--model', model, '--param', 'mixtureAlpha=0.5', '--param', 'target=fixed'];
    expect(await main([...args, '--top-k', '10', '--save-json', out, '--measures', 'nDCG@10,AP'], run)).toBe(0);
    const record = JSON.parse(fs.readFileSync(out, 'utf8')) as { run?: { metrics: { aggregate: Record<string, number> } }; metrics?: { aggregate: Record<string, number> } };
    const aggregate = (record.run ?? record).metrics!.aggregate;
    expect(point.measures).toEqual({ 'nDCG@10': aggregate['nDCG@10'], AP: aggregate.AP });
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  });

  it('with --param poolSize a sweep at top-k 10 and `dsw run` at top-k 100 score the same (the pool no longer follows k)', async () => {
    const sweep = capture();
    expect(await main(['sweep', '--dataset', dataset, '--grid', 'mixtureAlpha=0.5', '--model', model, '--param', 'poolSize=30', '--measures', 'nDCG@10', '--json'], sweep)).toBe(0);
    const point = (JSON.parse(sweep.stdout) as SweepJson).points[0]!;
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-sweep-pool-')), 'run.json');
    const args = ['run', '--dataset', dataset, '--pipeline', 'gqr', '--model', model, '--param', 'mixtureAlpha=0.5', '--param', 'poolSize=30'];
    expect(await main([...args, '--top-k', '100', '--save-json', out, '--measures', 'nDCG@10'], capture())).toBe(0);
    const record = JSON.parse(fs.readFileSync(out, 'utf8')) as { run: { config: Record<string, unknown>; metrics: { aggregate: Record<string, number> } } };
    expect(record.run.metrics.aggregate['nDCG@10']).toBeCloseTo(point.measures['nDCG@10']!, 12);
    expect(record.run.config).toMatchObject({ poolSize: 30, poolPerChild: 30 });
    const bad = capture();
    expect(await main([...args.slice(0, -2), '--param', 'poolSize=0', '--save-json', out], bad)).not.toBe(0);
    expect(bad.stderr).toContain('pool_size must be a whole number from 1 to 100000');
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  });

  it('its RRF and CC baselines score what `dsw run --pipeline rrf|cc` scores', async () => {
    const sweep = capture();
    expect(await main(['sweep', '--dataset', dataset, '--grid', 'mixtureAlpha=0.5', '--model', model, '--measures', 'nDCG@10,AP', '--json'], sweep)).toBe(0);
    const baselines = (JSON.parse(sweep.stdout) as SweepJson).baselines;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-sweep-baselines-'));
    const scored = async (pipeline: string, ...params: string[]) => {
      const out = path.join(dir, `${pipeline}.json`);
      const args = ['run', '--dataset', dataset, '--pipeline', pipeline, '--model', model, ...params.flatMap((p) => ['--param', p])];
      expect(await main([...args, '--top-k', '10', '--save-json', out, '--measures', 'nDCG@10,AP'], capture())).toBe(0);
      const record = JSON.parse(fs.readFileSync(out, 'utf8')) as { run?: { metrics: { aggregate: Record<string, number> } }; metrics?: { aggregate: Record<string, number> } };
      return (record.run ?? record).metrics!.aggregate;
    };
    expect(baselines.find((b) => b.name === 'rrf')!.measures).toEqual(await scored('rrf'));
    const cc = baselines.find((b) => b.name === 'cc')!;
    expect(cc.measures).toEqual(await scored('cc', `weight=${cc.weight}`));
    expect(baselines.find((b) => b.name === 'primary')!.measures).toEqual(await scored('dense'));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints a table of the grid points and the baselines', async () => {
    const io = capture();
    expect(await main(['sweep', '--dataset', dataset, '--grid', 'alpha=0,1', '--model', model, '--measures', 'nDCG@10', '--param', 'nSteps=5'], io)).toBe(0);
    const lines = io.stdout.split('\n');
    expect(lines[0]).toMatch(/^mixtureAlpha\s+nDCG@10\s+W\/T\/L nDCG@10\s+paths$/);
    expect(lines[2]).toMatch(/^\s+0\s+[\d.]+\s+0\/\d+\/0\s+single 54$/);
    expect(lines[3]).toMatch(/^\s+1\s+[\d.]+\s+\d+\/\d+\/\d+\s+single 54$/);
    expect(io.stdout).toContain('primary only');
    expect(io.stdout).toContain('complementary only');
    expect(io.stdout).toContain('RRF k=60');
    expect(io.stdout).toMatch(/best CC w=[\d.]+ \(by nDCG@10\)/);
    expect(io.stdout).toMatch(/best nDCG@10: [\d.]+ at α [01]/);
  });

  const bad: [string[], string][] = [
    [['--grid', 'beta=1'], 'Unknown grid key "beta"; sweepable keys: mixtureAlpha, temperature, learningRate, nSteps, candidatePoolMode, target, optimizer'],
    [['--grid', 'mixtureAlpha=0,2'], 'mixtureAlpha=2: mixture_alpha must be between 0 and 1'],
    [['--grid', 'target=blend'], 'target=blend: target must be one of per-step, fixed'],
    [['--grid', 'mixtureAlpha=0.5', '--param', 'nSteps=0'], '--param: n_steps must be positive'],
    [['--grid', 'mixtureAlpha=0.5', '--param', 'colour=red'], 'Unknown --param colour for pipeline gqr'],
    [[], 'dsw sweep needs at least one --grid key=v1,v2,…, e.g. --grid mixtureAlpha=0,0.5,1'],
    [['--grid', 'mixtureAlpha=0.5', '--pipeline', 'bm25'], 'dsw sweep sweeps --pipeline gqr only, got "bm25"'],
  ];
  it.each(bad)('rejects %j with a clear message and exit code 2', async (extra, message) => {
    const io = capture();
    expect(await main(['sweep', '--dataset', dataset, '--model', model, ...extra], io)).toBe(2);
    expect(io.stderr).toContain(`dsw sweep: ${message}`);
  });

  it('needs a model for the dense primary', async () => {
    const io = capture();
    expect(await main(['sweep', '--dataset', dataset, '--grid', 'mixtureAlpha=0,1'], io)).toBe(2);
    expect(io.stderr).toBe("dsw sweep: GQR's primary is dense retrieval: give --model <model folder>, e.g. --model public/models/tiny-bert\n");
  });
});

describe('dsw sweep --save-json', () => {
  it('writes the sweep as saved runs that rebuild into the same sweep, as the GQR lab reads them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-sweep-json-'));
    try {
      const io = capture();
      const file = path.join(dir, 'sweep.json');
      const args = ['sweep', '--dataset', dataset, '--pipeline', 'gqr', '--grid', 'mixtureAlpha=0,1', '--model', model, '--measures', 'nDCG@10', '--json'];
      expect(await main([...args, '--save-json', file, '--name', 'alpha sweep'], io)).toBe(0);
      const printed = JSON.parse(io.stdout) as SweepJson;
      const records = parseRunsJson(fs.readFileSync(file, 'utf8'));
      // Two grid points, then primary, complementary, RRF and the best CC.
      expect(records.map((r) => r.name)).toEqual([
        'alpha sweep · GQR α 0',
        'alpha sweep · GQR α 1',
        'alpha sweep · primary only',
        'alpha sweep · complementary only',
        'alpha sweep · RRF k=60',
        expect.stringMatching(/^alpha sweep · best CC w=[\d.]+ \(by nDCG@10\)$/),
      ]);
      const [sweep, ...others] = labSweepsFromRuns(records.map(summarizeRun));
      expect(others).toEqual([]);
      expect(sweep!.name).toBe('alpha sweep');
      expect(sweep!.points.map((p) => p.id)).toEqual(printed.points.map((p) => p.id));
      expect(sweep!.evaluation.points.map((p) => p.aggregate)).toEqual(printed.points.map((p) => p.measures));
      expect(sweep!.evaluation.baselines.primary.aggregate).toEqual(printed.baselines.find((b) => b.name === 'primary')!.measures);
      expect(io.stderr).toContain('6 runs of the sweep “alpha sweep”');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
