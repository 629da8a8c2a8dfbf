import type { Bm25Explanation } from '../bm25/index.ts';
import { explainConvex, explainRrf, type FusionExplanation } from '../fusion/index.ts';
import { gqrFetchK } from '../gqr/index.ts';
import { Bm25Retriever } from '../retrieval/index.ts';
import { buildRetriever, type RetrievalResources } from '../retrieval/index.ts';
import { DenseRetriever } from '../retrieval/index.ts';
import { FusionRetriever } from '../retrieval/index.ts';
import { GqrRetriever, tracePrepared } from '../retrieval/index.ts';
import { describePipeline, type PipelineSpec } from '../retrieval/index.ts';
import type { Retriever } from '../retrieval/index.ts';
import type { ScoredDoc } from '../ranking/index.ts';

/** What every part of an explanation says: which pipeline, at which depth, where the document ranked and its score there. */
interface ExplainedPart {
  /** `describePipeline` of the part. */
  label: string;
  /** How many results this part was asked for (k at the top, k × fetch multiplier for a fusion's or GQR's children). */
  depth: number;
  /** 1-based rank of the document in this part's list; null when the list does not hold it. */
  rank: number | null;
  /** The document's score from this part; null when the part cannot score it outside its list. */
  score: number | null;
}

/** A BM25 part: every query term's contribution. */
export interface Bm25PartExplanation extends ExplainedPart {
  kind: 'bm25';
  bm25: Bm25Explanation;
}

/** A dense part: the similarity of the query's and the document's vectors. */
export interface DensePartExplanation extends ExplainedPart {
  kind: 'dense';
  /** `cosine`: dot product of unit vectors; `MaxSim`: late interaction over token vectors. */
  similarity: 'cosine' | 'MaxSim';
  /** The embedding model, in one line. */
  model: string;
}

/** A fusion: the arithmetic over its two children's lists. */
export interface FusionPartExplanation extends ExplainedPart {
  kind: 'rrf' | 'cc';
  /** Null when neither child list holds the document. */
  fusion: FusionExplanation | null;
  children: [PartExplanation, PartExplanation];
}

/** The pieces of a GQR score, as the GQR pipeline's trace exposes them (every value for this document). */
export interface GqrScorePieces {
  /** The optimisation that ran and why. */
  path: string;
  pathReason: string;
  scorer: 'single' | 'multi';
  steps: number;
  mixtureAlpha: number;
  temperature: number;
  learningRate: number;
  target: string;
  /** Candidates in the pool. */
  poolSize: number;
  /** The primary's raw score (its floor when it did not return the document) and whether it returned it. */
  primaryScore: number;
  inPrimary: boolean;
  complementaryScore: number;
  inComplementary: boolean;
  /** p⁽⁰⁾ and q for this document: the primary's starting and the complementary's distributions. */
  primaryProbability: number;
  complementaryProbability: number;
  /** The target distribution's value (last step's, or the fixed one). */
  targetProbability: number;
  /** The path's score before any update, and after the last (the result's score). */
  initialScore: number;
  finalScore: number;
  /** Rank in the pool before refinement and after it. */
  initialRank: number;
  finalRank: number;
  /** What did not go as planned, in words. */
  notes: string[];
}

/** A GQR part: the refinement's pieces, and the two children whose lists it pooled. */
export interface GqrPartExplanation extends ExplainedPart {
  kind: 'gqr';
  /** Null when the pool does not hold the document. */
  gqr: GqrScorePieces | null;
  children: [PartExplanation, PartExplanation];
}

export type PartExplanation = Bm25PartExplanation | DensePartExplanation | FusionPartExplanation | GqrPartExplanation;

/** One result to explain: the search it came from, and its id. */
export interface ExplainResultRequest {
  spec: PipelineSpec;
  query: string;
  /** The k the result list was searched with. */
  k: number;
  docId: string;
}

/**
 * Why a document ranked where it did for a query under a pipeline: the pipeline is built again over the same
 * resources and each part is asked again (searches are deterministic), so the top part's score is the score the
 * search showed. BM25 parts give every term's contribution, dense parts the similarity, fusions their arithmetic
 * on their children's lists, GQR the pieces of its trace.
 */
export async function explainResult(request: ExplainResultRequest, resources: RetrievalResources): Promise<PartExplanation> {
  if (resources.retriever) throw new Error('A served corpus ranks on its server: “why” needs the corpus loaded in this browser.');
  const retriever = await buildRetriever(request.spec, resources);
  return explainPart(request.spec, retriever, request.query, request.k, request.docId);
}

async function explainPart(spec: PipelineSpec, retriever: Retriever, text: string, depth: number, docId: string, given?: ScoredDoc[]): Promise<PartExplanation> {
  const label = describePipeline(spec);
  if (spec.kind === 'gqr' && retriever instanceof GqrRetriever) return explainGqr(spec, retriever, text, depth, docId);
  const list = given ?? (await retriever.search(text, depth));
  const at = list.findIndex((d) => d.id === docId);
  const base = { label, depth, rank: at < 0 ? null : at + 1, score: at < 0 ? null : list[at]!.score };
  if (spec.kind === 'bm25' && retriever instanceof Bm25Retriever) {
    const bm25 = retriever.explain(text, docId);
    if (!bm25) throw new Error(`${docId} is not in this corpus's BM25 index.`);
    return { kind: 'bm25', ...base, score: bm25.score, bm25 };
  }
  if (spec.kind === 'dense' && retriever instanceof DenseRetriever) {
    const multi = retriever.searchMode === 'multi';
    const score = base.score ?? (multi ? null : await cosineOf(retriever, text, docId));
    return { kind: 'dense', ...base, score, similarity: multi ? 'MaxSim' : 'cosine', model: retriever.describeModel() };
  }
  if ((spec.kind === 'rrf' || spec.kind === 'cc') && retriever instanceof FusionRetriever) {
    const fetchK = depth * retriever.fetchKMultiplier;
    const [first, second] = retriever.children;
    const list1 = await first.search(text, fetchK);
    const list2 = await second.search(text, fetchK);
    const fusion =
      spec.kind === 'rrf'
        ? explainRrf(list1, list2, docId, { k: spec.k, fetchK })
        : explainConvex(list1, list2, docId, { weight: spec.weight, normalizeMethod: spec.normalizeMethod, pipeline1Min: spec.pipeline1Min, pipeline2Min: spec.pipeline2Min });
    const children: [PartExplanation, PartExplanation] = [
      await explainPart(spec.pipelines[0], first, text, fetchK, docId, list1),
      await explainPart(spec.pipelines[1], second, text, fetchK, docId, list2),
    ];
    return { kind: spec.kind, ...base, fusion, children };
  }
  throw new Error(`Cannot explain a ${spec.kind} part built as ${retriever.pipeline}.`);
}

async function explainGqr(spec: Extract<PipelineSpec, { kind: 'gqr' }>, retriever: GqrRetriever, text: string, depth: number, docId: string): Promise<GqrPartExplanation> {
  const prepared = await retriever.prepare(text, depth);
  const outcome = tracePrepared(prepared, depth, retriever.gqr);
  const { trace } = outcome;
  const at = outcome.results.findIndex((d) => d.id === docId);
  const fetchK = gqrFetchK(depth, retriever.gqr);
  const [primary, complementary] = retriever.children;
  const { input } = prepared;
  const children: [PartExplanation, PartExplanation] = [
    await explainPart(spec.primary, primary, text, fetchK, docId, prepared.children === 'complementary-for-primary' ? undefined : input.primary),
    await explainPart(spec.complementary, complementary, text, fetchK, docId, prepared.children === 'primary-for-complementary' ? undefined : input.complementary),
  ];
  const i = trace.pool.indexOf(docId);
  const gqr: GqrScorePieces | null =
    i < 0
      ? null
      : {
          path: trace.path,
          pathReason: trace.pathReason,
          scorer: trace.scorer,
          steps: trace.steps,
          mixtureAlpha: trace.config.mixtureAlpha,
          temperature: trace.config.temperature,
          learningRate: trace.config.learningRate,
          target: trace.config.target,
          poolSize: new Set(trace.pool).size,
          primaryScore: trace.primaryScores[i]!,
          inPrimary: input.primary.some((d) => d.id === docId),
          complementaryScore: trace.complementaryScores[i]!,
          inComplementary: input.complementary.some((d) => d.id === docId),
          primaryProbability: trace.primaryDistribution[i]!,
          complementaryProbability: trace.complementaryDistribution[i]!,
          targetProbability: trace.targetDistribution[i]!,
          initialScore: trace.initialScores[i]!,
          finalScore: trace.finalScores[i]!,
          initialRank: trace.ranks[0]![i]!,
          finalRank: trace.ranks[trace.ranks.length - 1]![i]!,
          notes: outcome.notes,
        };
  return {
    kind: 'gqr',
    label: describePipeline(spec),
    depth,
    rank: at < 0 ? null : at + 1,
    score: at >= 0 ? outcome.results[at]!.score : (gqr?.finalScore ?? null),
    gqr,
    children,
  };
}

/** The cosine of the query's and the document's stored unit vectors (for a document outside the dense list). */
async function cosineOf(retriever: DenseRetriever, text: string, docId: string): Promise<number | null> {
  const vector = (await retriever.vectorsFor([docId])).get(docId);
  if (!vector) return null;
  const query = (await retriever.embedQuery(text)).vector;
  let dot = 0;
  for (let i = 0; i < vector.length; i++) dot += query[i]! * vector[i]!;
  return dot;
}
