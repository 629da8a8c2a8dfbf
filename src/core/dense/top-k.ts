import type { ScoredDoc } from '../ranking/index.ts';

/** A dense search hit: the doc, its score and its row in the store (rows make ties deterministic). */
export interface DenseHit extends ScoredDoc {
  /** Row (document index) in the store that was searched. */
  row: number;
}

/**
 * Bounded min-heap keeping the best `k` (score, row) pairs. "Better" is a higher score, then a lower row, so the
 * result equals a full sort by (score desc, row asc). Rows must be offered in increasing order: an equal score
 * arriving later is then never better, and {@link offer} needs only one comparison to reject.
 */
export class TopKHeap {
  /** Capacity. */
  readonly k: number;
  private readonly scores: Float64Array;
  private readonly rows: Int32Array;
  private count = 0;

  constructor(k: number) {
    if (!Number.isInteger(k) || k < 0) throw new Error(`k must be a non-negative integer, got ${k}`);
    this.k = k;
    this.scores = new Float64Array(k);
    this.rows = new Int32Array(k);
  }

  /** The score a new row must beat to enter (−Infinity while not full). */
  get threshold(): number {
    return this.count < this.k ? -Infinity : this.scores[0];
  }

  /** Offers a row (rows in increasing order). NaN scores are ignored. */
  offer(score: number, row: number): void {
    if (this.count < this.k) {
      if (score !== score) return;
      this.siftUp(this.count++, score, row);
    } else if (score > this.scores[0]) {
      this.siftDown(score, row);
    }
  }

  /** The kept pairs, best first. */
  sorted(): { score: number; row: number }[] {
    const out: { score: number; row: number }[] = [];
    for (let i = 0; i < this.count; i++) out.push({ score: this.scores[i], row: this.rows[i] });
    return out.sort((a, b) => b.score - a.score || a.row - b.row);
  }

  // a is worse than b: lower score, or equal score and higher row.
  private worse(sa: number, ra: number, sb: number, rb: number): boolean {
    return sa < sb || (sa === sb && ra > rb);
  }

  private siftUp(i: number, score: number, row: number): void {
    const { scores, rows } = this;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(score, row, scores[parent], rows[parent])) break;
      scores[i] = scores[parent];
      rows[i] = rows[parent];
      i = parent;
    }
    scores[i] = score;
    rows[i] = row;
  }

  // Replaces the root (the worst kept pair) and restores the heap.
  private siftDown(score: number, row: number): void {
    const { scores, rows, count } = this;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= count) break;
      const right = left + 1;
      let child = left;
      if (right < count && this.worse(scores[right], rows[right], scores[left], rows[left])) child = right;
      if (!this.worse(scores[child], rows[child], score, row)) break;
      scores[i] = scores[child];
      rows[i] = rows[child];
      i = child;
    }
    scores[i] = score;
    rows[i] = row;
  }
}

/**
 * Merges partial top-k lists (e.g. from workers that each scanned a row range) into the global top `k`,
 * ordered by score descending, then row ascending — the same order a single full scan produces.
 */
export function mergeTopK(lists: readonly (readonly DenseHit[])[], k: number): DenseHit[] {
  if (!Number.isInteger(k) || k < 0) throw new Error(`k must be a non-negative integer, got ${k}`);
  return lists
    .flat()
    .sort((a, b) => b.score - a.score || a.row - b.row)
    .slice(0, k);
}
