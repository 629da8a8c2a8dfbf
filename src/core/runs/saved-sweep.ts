// How a sweep is saved: one run record per grid point and per baseline, each tagged with the sweep, so that a
// sweep made anywhere (the GQR lab, `dsw sweep --save-json`) is rebuilt from its runs.
import { runEnvironment, type RunEnvironment, type RunEnvironmentSource } from './run-environment.ts';
import type { QrelsMap } from '../eval/index.ts';
import { DEFAULT_RRF_K } from '../fusion/index.ts';
import { gqrFetchK, type GqrPath } from '../gqr/index.ts';
import { defaultSpec, type GqrPipelineSpec, type PipelineSpec } from '../retrieval/index.ts';
import { modelsOfPipeline } from './run-pipeline.ts';
import { buildRunRecord, type RunRecord, type RunSummary } from './run-record.ts';
import {
  bestValues, versusBaseline, type SweepEvaluation, type SweepRunScores, describeSettings, type GridAxis,
  type GridPoint, type SweepRuns,
} from '../sweep/index.ts';
import { newId } from '../ids/index.ts';

/** A finished sweep: live after a run, or rebuilt from its saved runs. */
export interface SavedSweep {
  /** Sweep id (shared by all its runs). */
  id: string;
  /** Name given by the user. */
  name: string;
  corpusId: string;
  corpusName: string;
  createdAt: number;
  /** The GQR pipeline with the base settings (grid values override them). */
  spec: GqrPipelineSpec;
  /** Results kept per query. */
  topK: number;
  /** The grid. */
  axes: GridAxis[];
  /** The expanded grid. */
  points: GridPoint[];
  /** Scores of every run. */
  evaluation: SweepEvaluation;
  /** Queries run. */
  queryCount: number;
  /** Wall time of the whole sweep (retrieval, embedding, re-ranking), in ms. */
  elapsedMs: number;
  /** Queries where a child could not embed and the other's list stood in. */
  childFallbacks: number;
  /** Saved run ids: grid point id, or `baseline:<name>`, → run id. */
  runIds: Record<string, string>;
}

/** A new sweep id (shared by all the sweep's runs). */
export function newSweepId(): string {
  return newId('s', 6);
}

/** What a sweep's runs record about the sweep (in `config.sweep`). */
export interface SweepRunTag {
  id: string;
  name: string;
  /** `point` for a grid point, else the baseline. */
  role: 'point' | 'primary' | 'complementary' | 'rrf' | 'cc';
  topK: number;
  axes: GridAxis[];
  createdAt: number;
  elapsedMs: number;
  queryCount: number;
  childFallbacks: number;
  /** The GQR pipeline with the base settings. */
  spec: GqrPipelineSpec;
  /** Grid points only. */
  point?: { id: string; index: number; settings: GridPoint['settings']; pathCounts: Record<GqrPath, number> };
  /** The CC run only: every weight tried and its scores (the run itself is the best by the first measure). */
  ccScores?: { weight: number; aggregate: Record<string, number> }[];
}

/** The pipeline spec of each baseline of a sweep over `spec`. */
export function baselineSpecs(spec: GqrPipelineSpec, ccWeight: number): Record<'primary' | 'complementary' | 'rrf' | 'cc', PipelineSpec> {
  const pipelines: [PipelineSpec, PipelineSpec] = [spec.primary, spec.complementary];
  const fetchKMultiplier = spec.config.fetchKMultiplier;
  return {
    primary: spec.primary,
    complementary: spec.complementary,
    rrf: { ...defaultSpec('rrf'), pipelines, fetchKMultiplier },
    cc: { ...defaultSpec('cc'), pipelines, weight: ccWeight, fetchKMultiplier },
  };
}

/** Everything needed to turn a finished sweep into saved runs. */
export interface SweepRecordInput {
  sweep: Omit<SavedSweep, 'runIds' | 'evaluation'>;
  runs: SweepRuns;
  evaluation: SweepEvaluation;
  qrels: QrelsMap;
  /** The GQR retriever's configuration (children included), as the worker reported it. */
  retrieverConfig: Readonly<Record<string, unknown>>;
  /** The host and the models' file hashes; each run records the environment of its own pipeline. */
  environment?: SweepEnvironment;
}

/** What a host knows for a sweep's runs (see `RunEnvironmentSource`). */
export type SweepEnvironment = RunEnvironmentSource;

/**
 * One run record per grid point and per baseline (primary-only, complementary-only, RRF and the best convex
 * combination by the first measure), each tagged with the sweep in `config.sweep`.
 */
export function sweepRunRecords(input: SweepRecordInput): { records: RunRecord[]; runIds: Record<string, string> } {
  const { sweep, runs, evaluation, qrels, retrieverConfig } = input;
  const measures = evaluation.measures;
  const first = measures[0]!;
  const bestCcWeight = Number(evaluation.bestCc[first]?.at ?? 0.5);
  const specs = baselineSpecs(sweep.spec, bestCcWeight);
  const tag = (role: SweepRunTag['role'], extra: Partial<SweepRunTag> = {}): SweepRunTag => ({
    id: sweep.id,
    name: sweep.name,
    role,
    topK: sweep.topK,
    axes: sweep.axes,
    createdAt: sweep.createdAt,
    elapsedMs: sweep.elapsedMs,
    queryCount: sweep.queryCount,
    childFallbacks: sweep.childFallbacks,
    spec: sweep.spec,
    ...extra,
  });
  const common = { corpusId: sweep.corpusId, corpusName: sweep.corpusName, k: sweep.topK, qrels, measures, createdAt: sweep.createdAt };
  const records: RunRecord[] = [];
  const runIds: Record<string, string> = {};
  runs.points.forEach(({ point, run }, i) => {
    const pipeline: GqrPipelineSpec = { ...sweep.spec, config: point.config };
    const record = buildRunRecord({
      ...common,
      name: `${sweep.name} · GQR ${describeSettings(point.settings)}`,
      pipeline,
      config: {
        ...retrieverConfig,
        ...point.config,
        poolPerChild: gqrFetchK(sweep.topK, point.config),
        pathsTaken: { ...evaluation.points[i]!.pathCounts, childStandIns: sweep.childFallbacks },
        sweep: tag('point', { point: { id: point.id, index: point.index, settings: point.settings, pathCounts: evaluation.points[i]!.pathCounts } }),
      },
      run,
      models: modelsOfPipeline(pipeline),
      ...environmentOf(input.environment, pipeline),
      notes: `Grid point ${point.index + 1} of ${runs.points.length} of the sweep “${sweep.name}”.`,
    });
    records.push(record);
    runIds[point.id] = record.id;
  });
  const baselines: [SweepRunTag['role'] & keyof typeof specs, string, SweepRuns['baselines']['primary']][] = [
    ['primary', 'primary only', runs.baselines.primary],
    ['complementary', 'complementary only', runs.baselines.complementary],
    ['rrf', `RRF k=${DEFAULT_RRF_K}`, runs.baselines.rrf],
    ['cc', `best CC w=${bestCcWeight} (by ${first})`, runs.cc.find((c) => c.weight === bestCcWeight)?.run ?? new Map()],
  ];
  for (const [role, label, run] of baselines) {
    const ccScores = role === 'cc' ? evaluation.cc.map((c) => ({ weight: c.weight, aggregate: c.aggregate })) : undefined;
    const record = buildRunRecord({
      ...common,
      name: `${sweep.name} · ${label}`,
      pipeline: specs[role],
      config: { sweep: tag(role, ccScores ? { ccScores } : {}) },
      run,
      models: modelsOfPipeline(specs[role] as PipelineSpec),
      ...environmentOf(input.environment, specs[role] as PipelineSpec),
      notes:
        role === 'cc'
          ? `Baseline of the sweep “${sweep.name}”: the convex-combination weight with the best ${first} among ${runs.cc.map((c) => c.weight).join(', ')} (chosen on these same queries).`
          : `Baseline of the sweep “${sweep.name}”, from the same child results as the grid points.`,
    });
    records.push(record);
    runIds[`baseline:${role}`] = record.id;
  }
  return { records, runIds };
}

function environmentOf(environment: SweepEnvironment | undefined, spec: PipelineSpec): { environment?: RunEnvironment } {
  return environment ? { environment: runEnvironment(environment.host, spec, environment.modelFiles) } : {};
}

/** The sweep tag of a saved run, if it belongs to a sweep. */
export function sweepTagOf(run: Pick<RunSummary, 'config'>): SweepRunTag | null {
  const tag = (run.config as { sweep?: SweepRunTag }).sweep;
  return tag && typeof tag === 'object' && typeof tag.id === 'string' && typeof tag.role === 'string' ? tag : null;
}

/**
 * Rebuilds the sweeps of a corpus from its saved runs (newest first). A sweep whose primary baseline or scores are
 * missing (runs deleted, corpus without qrels) is left out; deleted grid points are left out of their sweep.
 */
export function labSweepsFromRuns(summaries: readonly RunSummary[]): SavedSweep[] {
  const groups = new Map<string, { tag: SweepRunTag; run: RunSummary }[]>();
  for (const run of summaries) {
    const tag = sweepTagOf(run);
    if (!tag || !run.metrics) continue;
    const group = groups.get(tag.id) ?? [];
    group.push({ tag, run });
    groups.set(tag.id, group);
  }
  const sweeps: SavedSweep[] = [];
  for (const group of groups.values()) {
    const primary = group.find((g) => g.tag.role === 'primary');
    if (!primary) continue;
    const head = primary.tag;
    const measures = primary.run.measures;
    const primaryPerQuery = primary.run.metrics!.perQuery;
    const scores = (run: RunSummary): SweepRunScores => ({
      aggregate: run.metrics!.aggregate,
      perQuery: run.metrics!.perQuery,
      versusPrimary: versusBaseline(run.metrics!.perQuery, primaryPerQuery, measures),
    });
    const pointRuns = group.filter((g) => g.tag.role === 'point' && g.tag.point).sort((a, b) => a.tag.point!.index - b.tag.point!.index);
    const points: GridPoint[] = pointRuns.map(({ tag, run }) => ({
      id: tag.point!.id,
      index: tag.point!.index,
      settings: tag.point!.settings,
      config: (run.pipeline as GqrPipelineSpec).config,
    }));
    const baseline = (role: SweepRunTag['role']) => group.find((g) => g.tag.role === role)?.run;
    const complementary = baseline('complementary');
    const rrf = baseline('rrf');
    const ccRun = group.find((g) => g.tag.role === 'cc');
    // Only the saved CC run (the best weight on the first measure) keeps its per-query values.
    const savedCcWeight = ccRun ? (ccRun.run.pipeline as { weight?: unknown }).weight : undefined;
    const cc = (ccRun?.tag.ccScores ?? []).map((c) =>
      c.weight === savedCcWeight ? { ...scores(ccRun!.run), weight: c.weight, aggregate: c.aggregate } : { weight: c.weight, aggregate: c.aggregate, perQuery: {}, versusPrimary: {} },
    );
    const pointScores = pointRuns.map(({ tag, run }) => ({ pointId: tag.point!.id, pathCounts: tag.point!.pathCounts, ...scores(run) }));
    const empty: SweepRunScores = { aggregate: {}, perQuery: {}, versusPrimary: {} };
    const runIds: Record<string, string> = {};
    for (const { tag, run } of group) runIds[tag.role === 'point' ? tag.point!.id : `baseline:${tag.role}`] = run.id;
    sweeps.push({
      id: head.id,
      name: head.name,
      corpusId: primary.run.corpusId,
      corpusName: primary.run.corpusName,
      createdAt: head.createdAt,
      spec: head.spec,
      topK: head.topK,
      axes: head.axes,
      points,
      queryCount: head.queryCount,
      elapsedMs: head.elapsedMs,
      childFallbacks: head.childFallbacks,
      runIds,
      evaluation: {
        measures,
        evaluatedQueries: primary.run.metrics!.queryCount,
        points: pointScores,
        baselines: {
          primary: scores(primary.run),
          complementary: complementary ? scores(complementary) : empty,
          rrf: rrf ? scores(rrf) : empty,
        },
        cc,
        bestPoint: bestValues(pointScores.map((p) => ({ at: p.pointId, aggregate: p.aggregate })), measures),
        bestCc: bestValues(cc.map((c) => ({ at: c.weight, aggregate: c.aggregate })), measures),
      },
    });
  }
  return sweeps.sort((a, b) => b.createdAt - a.createdAt);
}
