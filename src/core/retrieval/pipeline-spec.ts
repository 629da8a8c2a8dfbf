import { OKAPI_BM25, type Bm25Params } from '../bm25/index.ts';
import { modelIdOfKey } from '../embedding/index.ts';
import { type NormalizeMethod, DEFAULT_RRF_K } from '../fusion/index.ts';
import { DEFAULT_GQR_CONFIG, type GqrConfig } from '../gqr/index.ts';
import type { VectorFormChoice } from '../dense/index.ts';
import type { DenseSearchMode } from './dense-retriever.ts';
import { DEFAULT_FETCH_K_MULTIPLIER } from './fusion-retriever.ts';

/**
 * A retrieval pipeline as data: what a run saves as its configuration, what the UI edits, what workers and the
 * CLI turn into a Retriever with `buildRetriever`. Every variant records every setting that affects ranking.
 * To add a kind: a variant here, a case in `PIPELINE_KINDS`, `defaultSpec`, `childrenOf`, `describePipeline` and
 * `buildRetriever`.
 */
export type PipelineSpec = Bm25PipelineSpec | DensePipelineSpec | RrfPipelineSpec | CcPipelineSpec | GqrPipelineSpec;

/** BM25 over the corpus's stored index. */
export interface Bm25PipelineSpec {
  kind: 'bm25';
  /** Scoring parameters (query time). The analyzer is the index's own and is recorded by the retriever. */
  params: Bm25Params;
}

/** Exact dense retrieval over one stored embedding set of the corpus. */
export interface DensePipelineSpec {
  kind: 'dense';
  /** The embedding set (`embeddingModelKey` of its model); queries are embedded with that same model. */
  modelKey: string;
  /** `single` (default): cosine of pooled vectors; `multi`: MaxSim over stored token vectors. */
  searchMode?: DenseSearchMode;
  /**
   * How pooled vectors are scanned (`single` only): `float32` exact; `int8` or `binary` first pass with float32
   * rescoring of the best candidates; `int8-exact` the int8 first pass with every row rescored that could reach the
   * top-k (float32's hits and scores, from a quarter of the memory); `auto` (default) float32 below 200,000
   * documents, int8 from there. The run config records the form used.
   */
  vectorForm?: VectorFormChoice;
}

/** Reciprocal rank fusion of two pipelines (docs/decisions.md#fusion-and-retrieval). */
export interface RrfPipelineSpec {
  kind: 'rrf';
  /** Pipeline 1 and pipeline 2, in this order. */
  pipelines: [PipelineSpec, PipelineSpec];
  /** The RRF constant in 1/(k + rank); reference default 60. */
  k: number;
  /** Each child fetches top-k × this; reference default 2. */
  fetchKMultiplier: number;
}

/** Convex combination of two pipelines' normalised scores (docs/decisions.md#fusion-and-retrieval). */
export interface CcPipelineSpec {
  kind: 'cc';
  /** Pipeline 1 and pipeline 2, in this order. */
  pipelines: [PipelineSpec, PipelineSpec];
  /** Weight of pipeline 1 (pipeline 2 gets 1 − weight); reference default 0.5. */
  weight: number;
  /** Per-list score normalisation: mm, tmm, z or dbsf; reference default mm. */
  normalizeMethod: NormalizeMethod;
  /** Theoretical minimum score of pipeline 1 (needed by tmm; e.g. 0 for BM25, −1 for cosine). */
  pipeline1Min: number | null;
  /** Theoretical minimum score of pipeline 2 (needed by tmm). */
  pipeline2Min: number | null;
  /** Each child fetches top-k × this; reference default 2. */
  fetchKMultiplier: number;
}

/** Guided Query Refinement (docs/decisions.md#gqr): the primary's query is refined toward the complementary. */
export interface GqrPipelineSpec {
  kind: 'gqr';
  /** The pipeline whose query representation is refined (dense for the embedding paths; any other → score space). */
  primary: PipelineSpec;
  /** The pipeline that guides the refinement (BM25 in the reference; any pipeline). */
  complementary: PipelineSpec;
  /** Every GQR setting (see `resolveGqrConfig`). */
  config: GqrConfig;
}

/** The lowest score a pipeline can give, when it is known (what `tmm` normalisation needs). */
export function theoreticalMinScore(spec: PipelineSpec): number | null {
  switch (spec.kind) {
    case 'bm25':
      return 0;
    case 'dense':
      return -1; // cosine of unit vectors, and MaxSim's mean of such cosines
    default:
      return null;
  }
}

/** A short human-readable label for a spec, for lists and chart legends. */
export function describePipeline(spec: PipelineSpec): string {
  switch (spec.kind) {
    case 'bm25': {
      const p = spec.params;
      const plain = p.d === 0 && !p.termCountBoost;
      return `BM25 k1=${p.k1} b=${p.b}${plain ? '' : ` d=${p.d}${p.termCountBoost ? ' +boost' : ''}`}`;
    }
    case 'dense':
      return `Dense ${modelIdOfKey(spec.modelKey)}${spec.searchMode === 'multi' ? ' MaxSim' : spec.vectorForm && spec.vectorForm !== 'auto' ? ` ${spec.vectorForm}` : ''}`;
    case 'rrf':
      return `RRF k=${spec.k} (${describePipeline(spec.pipelines[0])} + ${describePipeline(spec.pipelines[1])})`;
    case 'cc':
      return `CC ${spec.normalizeMethod} w=${spec.weight} (${describePipeline(spec.pipelines[0])} + ${describePipeline(spec.pipelines[1])})`;
    case 'gqr':
      return `GQR α=${spec.config.mixtureAlpha} ${spec.config.target} ${spec.config.optimizer} (${describePipeline(spec.primary)} ← ${describePipeline(spec.complementary)})`;
  }
}

/** Every pipeline kind, in the order forms and the CLI list them. */
export const PIPELINE_KINDS = ['bm25', 'dense', 'rrf', 'cc', 'gqr'] as const satisfies readonly PipelineSpec['kind'][];

/** The weight of pipeline 1 a convex combination starts from (reference default). */
export const DEFAULT_CC_WEIGHT = 0.5;

/** The spec a pipeline of each kind starts from. */
export type DefaultSpec<K extends PipelineSpec['kind']> = Extract<PipelineSpec, { kind: K }>;

/**
 * The spec a kind starts from, with the reference defaults. Fusions and GQR fuse dense (first / primary) with
 * BM25; dense parts have `modelKey` (default empty: not complete until a form or the CLI picks an embedding set).
 */
export function defaultSpec<K extends PipelineSpec['kind']>(kind: K, modelKey = ''): DefaultSpec<K> {
  const bm25: Bm25PipelineSpec = { kind: 'bm25', params: { ...OKAPI_BM25 } };
  const dense: DensePipelineSpec = { kind: 'dense', modelKey };
  const fetchKMultiplier = DEFAULT_FETCH_K_MULTIPLIER;
  const specs: { [P in PipelineSpec['kind']]: () => DefaultSpec<P> } = {
    bm25: () => bm25,
    dense: () => dense,
    rrf: () => ({ kind: 'rrf', pipelines: [dense, bm25], k: DEFAULT_RRF_K, fetchKMultiplier }),
    cc: () => ({ kind: 'cc', pipelines: [dense, bm25], weight: DEFAULT_CC_WEIGHT, normalizeMethod: 'mm', pipeline1Min: null, pipeline2Min: null, fetchKMultiplier }),
    gqr: () => ({ kind: 'gqr', primary: dense, complementary: bm25, config: { ...DEFAULT_GQR_CONFIG } }),
  };
  return specs[kind]() as DefaultSpec<K>;
}

/** The pipelines a spec is built from (fusion inputs, GQR's primary and complementary); none for a leaf. */
export function childrenOf(spec: PipelineSpec): PipelineSpec[] {
  switch (spec.kind) {
    case 'rrf':
    case 'cc':
      return [...spec.pipelines];
    case 'gqr':
      return [spec.primary, spec.complementary];
    default:
      return [];
  }
}

/** Whether every dense part of a spec names an embedding set (a spec from `defaultSpec` does not yet). */
export function isComplete(spec: PipelineSpec): boolean {
  if (spec.kind === 'dense') return spec.modelKey !== '';
  return childrenOf(spec).every(isComplete);
}
