import {
  buildCandidatePool, scoreMap, alignScores, missingScoreFloor, gqrFetchK, resolveGqrConfig, type GqrConfig,
  type GqrInput, gqrRerank, gqrRerankWithTrace, chooseScorerPath, resolveScorerMode, type GqrPath, type GqrTrace,
} from '../gqr/index.ts';
import { DenseRetriever } from './dense-retriever.ts';
import type { Retriever } from './retriever.ts';
import type { ScoredDoc } from '../ranking/index.ts';

/**
 * The primary's embedding geometry, which GQR refines the query in (a dense retriever offers it). Without it every
 * query takes the score-space path.
 */
export interface GqrGeometry {
  /** How the primary ranks: single-vector cosine or multi-vector MaxSim (what scorerMode `auto` follows). */
  readonly searchMode: 'single' | 'multi';
  /** The query's vector, as the primary embeds it; throws an `EmbeddingError` when it cannot embed. */
  embedQuery(text: string, signal?: AbortSignal): Promise<ArrayLike<number>>;
  /** The query's token vectors for MaxSim; absent when the primary cannot make them. */
  embedQueryTokens?(text: string, signal?: AbortSignal): Promise<ArrayLike<number>[]>;
  /** Stored single vectors of the given documents; ids without one are left out. */
  documentVectors(ids: readonly string[]): Promise<ReadonlyMap<string, ArrayLike<number>>>;
  /** Stored token vectors of the given documents; ids without are left out. Absent when none are stored. */
  documentTokenVectors?(ids: readonly string[]): Promise<ReadonlyMap<string, ArrayLike<number>[]>>;
}

/**
 * Which lists the children produced: both their own, or one standing in for the other (the reference's by-text path,
 * docs/decisions.md#gqr-reference).
 */
export type GqrChildLists = 'both' | 'complementary-for-primary' | 'primary-for-complementary';

/** The expensive part of a GQR query (child retrievals and embeddings), computed once and re-ranked any number of times. */
export interface GqrPrepared {
  /** The query text. */
  text: string;
  /** Depth each child was asked for: `topK × fetchKMultiplier`. */
  fetchK: number;
  /** The child lists and the primary's embeddings of the query and of every candidate of the union pool. */
  input: GqrInput;
  /** Which lists the children produced. */
  children: GqrChildLists;
  /** What did not go as planned, in words (a child that could not embed, a missing query embedding). */
  notes: string[];
}

/** One GQR answer with how it came about. */
export interface GqrOutcome {
  /** The ranked documents. */
  results: ScoredDoc[];
  /** The optimisation that ran. */
  path: GqrPath;
  /** Why that path ran, e.g. "candidate m012 has no embedding". */
  pathReason: string;
  /** Which lists the children produced. */
  children: GqrChildLists;
  /** What did not go as planned, in words. */
  notes: string[];
}

/** Options of a {@link GqrRetriever}. */
export interface GqrRetrieverOptions {
  /** The retriever whose query representation is refined (normally dense). */
  primary: Retriever;
  /** The retriever that guides the refinement (normally BM25; any retriever). */
  complementary: Retriever;
  /** The primary's embedding geometry; null or absent → score-space path for every query. */
  geometry?: GqrGeometry | null;
  /** GQR settings; missing ones take the defaults. */
  config?: Partial<GqrConfig>;
}

/** True for the error a retriever throws when it needs an embedding it cannot make (reference `EmbeddingError`). */
export function isEmbeddingError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'EmbeddingError';
}

/**
 * Guided Query Refinement as a retriever (the reference's by-text path, docs/decisions.md#gqr-reference): both
 * children are asked for `topK × fetchKMultiplier` documents, one after the other; a child that cannot embed the
 * query (EmbeddingError) is replaced by the other's list; the query and candidates are embedded by the primary's
 * geometry; the core re-ranks the pool. Stored queries go through the same path with their text (the workbench
 * embeds them on the fly with the primary's model, which is what a stored query embedding would hold).
 */
export class GqrRetriever implements Retriever {
  readonly pipeline = 'gqr';
  /** The validated GQR settings. */
  readonly gqr: Readonly<GqrConfig>;
  private readonly primary: Retriever;
  private readonly complementary: Retriever;
  private readonly geometry: GqrGeometry | null;
  /** Queries answered so far per path, and per child stand-in: reported in `config` so a saved run says which paths ran. */
  private readonly tally = { single: 0, multi: 0, 'score-space': 0, childStandIns: 0 };

  constructor(options: GqrRetrieverOptions) {
    this.primary = options.primary;
    this.complementary = options.complementary;
    this.geometry = options.geometry ?? null;
    this.gqr = Object.freeze(resolveGqrConfig(options.config));
  }

  /** The primary and the complementary retriever, in this order. */
  get children(): readonly [Retriever, Retriever] {
    return [this.primary, this.complementary];
  }

  get config(): Readonly<Record<string, unknown>> {
    return {
      ...this.gqr,
      primary: { pipeline: this.primary.pipeline, ...this.primary.config },
      complementary: { pipeline: this.complementary.pipeline, ...this.complementary.config },
      primarySearchMode: this.geometry?.searchMode ?? null,
      resolvedScorer: resolveScorerMode(this.gqr.scorerMode, this.geometry?.searchMode),
      pathsTaken: { ...this.tally },
    };
  }

  async search(text: string, k: number, signal?: AbortSignal): Promise<ScoredDoc[]> {
    return (await this.searchWithOutcome(text, k, signal)).results;
  }

  /** As {@link search}, with the path that ran and why. */
  async searchWithOutcome(text: string, k: number, signal?: AbortSignal): Promise<GqrOutcome> {
    return this.count(rerankPrepared(await this.prepare(text, k, signal), k, this.gqr));
  }

  /** As {@link search}, with the full optimisation trace (for the inspector). */
  async searchWithTrace(text: string, k: number, signal?: AbortSignal): Promise<GqrOutcome & { trace: GqrTrace }> {
    return this.count(tracePrepared(await this.prepare(text, k, signal), k, this.gqr));
  }

  private count<T extends GqrOutcome>(outcome: T): T {
    this.tally[outcome.path]++;
    if (outcome.children !== 'both') this.tally.childStandIns++;
    return outcome;
  }

  /**
   * Runs the children and gathers the embeddings for `topK` results: everything any GQR setting except
   * `fetchKMultiplier` and `scorerMode` needs, so a sweep calls this once per query.
   */
  async prepare(text: string, topK: number, signal?: AbortSignal): Promise<GqrPrepared> {
    const fetchK = gqrFetchK(topK, this.gqr);
    const notes: string[] = [];
    let children: GqrChildLists = 'both';
    let primary: ScoredDoc[];
    let complementary: ScoredDoc[];
    try {
      primary = await this.primary.search(text, fetchK, signal);
    } catch (error) {
      if (!isEmbeddingError(error)) throw error;
      complementary = await this.complementary.search(text, fetchK, signal);
      primary = complementary;
      children = 'complementary-for-primary';
      notes.push(`The primary could not embed the query (${messageOf(error)}); the complementary list stands in for it.`);
    }
    if (children === 'both') {
      try {
        complementary = await this.complementary.search(text, fetchK, signal);
      } catch (error) {
        if (!isEmbeddingError(error)) throw error;
        complementary = primary;
        children = 'primary-for-complementary';
        notes.push(`The complementary retriever could not embed the query (${messageOf(error)}); the primary list stands in for it.`);
      }
    }
    const input: GqrInput = { primary, complementary: complementary! };
    if (this.geometry) await this.addEmbeddings(input, text, notes, signal);
    else notes.push('The primary has no embedding model, so GQR refines its scores directly (score space).');
    return { text, fetchK, input, children, notes };
  }

  private async addEmbeddings(input: GqrInput, text: string, notes: string[], signal?: AbortSignal): Promise<void> {
    const geometry = this.geometry!;
    input.primarySearchMode = geometry.searchMode;
    const candidates = buildCandidatePool(input.primary, input.complementary, 'union');
    const scorer = resolveScorerMode(this.gqr.scorerMode, geometry.searchMode);
    if (scorer === 'single') {
      input.queryEmbedding = await embedOrNull(() => geometry.embedQuery(text, signal), notes);
      if (input.queryEmbedding && candidates.length > 0) input.candidateEmbeddings = await geometry.documentVectors(candidates);
      return;
    }
    if (!geometry.embedQueryTokens) {
      notes.push('The primary cannot embed the query token by token, so MaxSim cannot run.');
      input.queryMultiEmbedding = null;
    } else {
      input.queryMultiEmbedding = await embedOrNull(() => geometry.embedQueryTokens!(text, signal), notes);
    }
    if (input.queryMultiEmbedding && candidates.length > 0 && geometry.documentTokenVectors) {
      input.candidateMultiEmbeddings = await geometry.documentTokenVectors(candidates);
    }
  }
}

/**
 * The geometry of a dense primary: its query embeddings and stored document vectors, copied out of the store so a
 * prepared query is small and can be sent to another thread. Null for any other retriever (score-space path).
 */
export function gqrGeometryOf(primary: Retriever): GqrGeometry | null {
  if (!(primary instanceof DenseRetriever)) return null;
  const copyVectors = (map: ReadonlyMap<string, Float32Array>) => new Map([...map].map(([id, v]) => [id, v.slice()]));
  const copyMatrices = (map: ReadonlyMap<string, Float32Array[]>) => new Map([...map].map(([id, m]) => [id, m.map((v) => v.slice())]));
  return {
    searchMode: primary.searchMode,
    embedQuery: async (text) => (await primary.embedQuery(text)).vector.slice(),
    embedQueryTokens: async (text) => {
      const { vectors, count } = await primary.embedQueryTokens(text);
      const dims = primary.model.dimensions;
      return Array.from({ length: count }, (_, a) => vectors.slice(a * dims, (a + 1) * dims));
    },
    documentVectors: async (ids) => copyVectors(await primary.vectorsFor(ids)),
    documentTokenVectors: primary.hasTokenVectors ? async (ids) => copyMatrices(await primary.tokenVectorsFor(ids)) : undefined,
  };
}

async function embedOrNull<T>(embed: () => Promise<T>, notes: string[]): Promise<T | null> {
  try {
    return await embed();
  } catch (error) {
    if (!isEmbeddingError(error)) throw error;
    notes.push(`The primary could not embed the query (${messageOf(error)}).`);
    return null;
  }
}

/** The path GQR takes for a prepared query under `config`, and why (without running the optimisation). */
export function gqrPathOf(input: GqrInput, config: GqrConfig): { path: GqrPath; reason: string } {
  const pool = buildCandidatePool(input.primary, input.complementary, config.candidatePoolMode);
  const primaryMap = scoreMap(input.primary);
  const scores = alignScores(pool, primaryMap, missingScoreFloor(primaryMap));
  const choice = chooseScorerPath(input, pool, scores, config.scorerMode);
  return { path: choice.path, reason: choice.reason };
}

/** Re-ranks a prepared query under one configuration (the sweep's inner step). */
export function rerankPrepared(prepared: GqrPrepared, topK: number, config: GqrConfig): GqrOutcome {
  const { path, reason } = gqrPathOf(prepared.input, config);
  return {
    results: gqrRerank(prepared.input, topK, config),
    path,
    pathReason: reason,
    children: prepared.children,
    notes: prepared.notes,
  };
}

/** As {@link rerankPrepared}, with the optimisation trace. */
export function tracePrepared(prepared: GqrPrepared, topK: number, config: GqrConfig): GqrOutcome & { trace: GqrTrace } {
  const { results, trace } = gqrRerankWithTrace(prepared.input, topK, config);
  return { results, trace, path: trace.path, pathReason: trace.pathReason, children: prepared.children, notes: prepared.notes };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
