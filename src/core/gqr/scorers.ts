import { axpyAt, dotAt } from './kernels.ts';

/** Norm guard of the reference (ε = 1e-8). */
const EPS = 1e-8;

/**
 * A differentiable scoring of every candidate as a function of flattened query parameters θ.
 * `score` must be called before `backward` with the same θ: `backward` reuses what `score` cached.
 */
export interface QueryScorer {
  /** Number of candidates scored. */
  readonly candidateCount: number;
  /** Length of θ. */
  readonly parameterCount: number;
  /** `out[i] = s_i(θ)`. */
  score(theta: Float64Array, out: Float64Array): void;
  /** `out = Σ_i weights_i · ∂s_i/∂θ` at the θ of the last `score` call. */
  backward(theta: Float64Array, weights: Float64Array, out: Float64Array): void;
}

/** Score-space fallback (docs/decisions.md#gqr-reference): θ are the logits themselves, so s = θ, ∂s/∂θ = I. */
export class IdentityScorer implements QueryScorer {
  readonly candidateCount: number;
  readonly parameterCount: number;

  constructor(size: number) {
    this.candidateCount = size;
    this.parameterCount = size;
  }

  score(theta: Float64Array, out: Float64Array): void {
    out.set(theta);
  }

  backward(_theta: Float64Array, weights: Float64Array, out: Float64Array): void {
    out.set(weights);
  }
}

/**
 * Single-vector cosine (docs/decisions.md#gqr-reference): `cos_i(z) = d_i·z / (max(‖d_i‖, ε)·‖z‖)`, 0 for all
 * when ‖z‖ ≤ ε.
 * Gradient `∂cos_i/∂z = d_i/(max(‖d_i‖,ε)·‖z‖) − cos_i·z/‖z‖²` (0 when ‖z‖ ≤ ε).
 * Candidate rows are pre-divided by their clamped norms, so a step costs two passes over the matrix.
 */
export class CosineScorer implements QueryScorer {
  readonly candidateCount: number;
  readonly parameterCount: number;
  private readonly unitRows: Float64Array;
  private readonly cosines: Float64Array;
  private queryNorm = 0;

  /** `candidates[i]` must have the query's dimension `dim`. */
  constructor(candidates: readonly ArrayLike<number>[], dim: number) {
    const n = candidates.length;
    this.candidateCount = n;
    this.parameterCount = dim;
    this.unitRows = new Float64Array(n * dim);
    this.cosines = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const row = candidates[i];
      let sq = 0;
      for (let j = 0; j < dim; j++) sq += row[j] * row[j];
      const norm = Math.max(Math.sqrt(sq), EPS);
      const base = i * dim;
      for (let j = 0; j < dim; j++) this.unitRows[base + j] = row[j] / norm;
    }
  }

  score(z: Float64Array, out: Float64Array): void {
    const dim = this.parameterCount;
    let sq = 0;
    for (let j = 0; j < dim; j++) sq += z[j] * z[j];
    const zNorm = Math.sqrt(sq);
    this.queryNorm = zNorm;
    const rows = this.unitRows;
    for (let i = 0; i < this.candidateCount; i++) {
      const c = zNorm > EPS ? dotAt(rows, i * dim, z, 0, dim) / zNorm : 0;
      this.cosines[i] = c;
      out[i] = c;
    }
  }

  backward(z: Float64Array, weights: Float64Array, out: Float64Array): void {
    const dim = this.parameterCount;
    out.fill(0);
    const zNorm = this.queryNorm;
    if (zNorm <= EPS) return;
    const rows = this.unitRows;
    let weightedCos = 0;
    for (let i = 0; i < this.candidateCount; i++) {
      const w = weights[i];
      weightedCos += w * this.cosines[i];
      if (w !== 0) axpyAt(w, rows, i * dim, out, 0, dim);
    }
    const a = 1 / zNorm;
    const b = weightedCos / (zNorm * zNorm);
    for (let j = 0; j < dim; j++) out[j] = out[j] * a - b * z[j];
  }
}

/**
 * Multi-vector MaxSim normalised by the number of query vectors m (docs/decisions.md#gqr-reference):
 * `S_i(Z) = (1/max(m,1))·Σ_a max_b ⟨z_a, d_{i,b}⟩` on raw dot products. θ is Z flattened row-major (m × dim).
 * Subgradient `∂S_i/∂z_a = d_{i,b*(a)}/max(m,1)`, b* the first index attaining the max. A candidate without
 * vectors scores 0 with zero gradient; an empty Z scores every candidate 0.
 */
export class MaxSimScorer implements QueryScorer {
  readonly candidateCount: number;
  readonly parameterCount: number;
  private readonly queryVectors: number;
  private readonly dim: number;
  private readonly docVectors: Float64Array;
  /** Start (in vectors) of candidate i's rows in `docVectors`; length n + 1. */
  private readonly offsets: Int32Array;
  /** Absolute row index (into `docVectors`) of b*(a) for candidate i at `i * m + a`; −1 if the candidate is empty. */
  private readonly argmax: Int32Array;

  /** `candidates[i]` is a list of vectors, each of dimension `dim`; `queryVectors` is m. */
  constructor(candidates: readonly (readonly ArrayLike<number>[])[], queryVectors: number, dim: number) {
    const n = candidates.length;
    this.candidateCount = n;
    this.queryVectors = queryVectors;
    this.dim = dim;
    this.parameterCount = queryVectors * dim;
    this.offsets = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) this.offsets[i + 1] = this.offsets[i] + candidates[i].length;
    this.docVectors = new Float64Array(this.offsets[n] * dim);
    for (let i = 0; i < n; i++) {
      const vectors = candidates[i];
      for (let b = 0; b < vectors.length; b++) {
        const base = (this.offsets[i] + b) * dim;
        const v = vectors[b];
        for (let j = 0; j < dim; j++) this.docVectors[base + j] = v[j];
      }
    }
    this.argmax = new Int32Array(n * queryVectors);
  }

  score(theta: Float64Array, out: Float64Array): void {
    const { queryVectors: m, dim, docVectors: docs, offsets } = this;
    const scale = 1 / Math.max(m, 1);
    for (let i = 0; i < this.candidateCount; i++) {
      const first = offsets[i];
      const end = offsets[i + 1];
      let total = 0;
      for (let a = 0; a < m; a++) {
        const zBase = a * dim;
        let best = -Infinity;
        let bestRow = -1;
        for (let row = first; row < end; row++) {
          const dot = dotAt(theta, zBase, docs, row * dim, dim);
          if (bestRow < 0 || dot > best) {
            best = dot;
            bestRow = row;
          }
        }
        this.argmax[i * m + a] = bestRow;
        if (bestRow >= 0) total += best;
      }
      out[i] = first === end ? 0 : total * scale;
    }
  }

  backward(_theta: Float64Array, weights: Float64Array, out: Float64Array): void {
    const { queryVectors: m, dim, docVectors: docs } = this;
    const scale = 1 / Math.max(m, 1);
    out.fill(0);
    for (let i = 0; i < this.candidateCount; i++) {
      const w = weights[i] * scale;
      if (w === 0) continue;
      for (let a = 0; a < m; a++) {
        const row = this.argmax[i * m + a];
        if (row < 0) continue;
        axpyAt(w, docs, row * dim, out, a * dim, dim);
      }
    }
  }
}

/** Cosine scores of `query` against each candidate (convenience over {@link CosineScorer}). */
export function cosineScores(query: ArrayLike<number>, candidates: readonly ArrayLike<number>[]): Float64Array {
  const scorer = new CosineScorer(candidates, query.length);
  const out = new Float64Array(candidates.length);
  scorer.score(Float64Array.from(query), out);
  return out;
}

/** MaxSim scores of the query matrix against each candidate matrix (convenience over {@link MaxSimScorer}). */
export function maxSimScores(
  query: readonly ArrayLike<number>[],
  candidates: readonly (readonly ArrayLike<number>[])[],
): Float64Array {
  const dim = query.length > 0 ? query[0].length : 0;
  const scorer = new MaxSimScorer(candidates, query.length, dim);
  const out = new Float64Array(candidates.length);
  scorer.score(flattenRows(query, dim), out);
  return out;
}

/** Row-major float64 copy of equally long rows. */
export function flattenRows(rows: readonly ArrayLike<number>[], dim: number): Float64Array {
  const flat = new Float64Array(rows.length * dim);
  for (let a = 0; a < rows.length; a++) {
    const row = rows[a];
    for (let j = 0; j < dim; j++) flat[a * dim + j] = row[j];
  }
  return flat;
}
