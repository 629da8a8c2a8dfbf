// What the generated passages are drawn from: the word frequencies and passage lengths of the shared collections.
import fs from 'node:fs';
import path from 'node:path';
import { SHARED_DATA } from '../harness.ts';

export const SOURCE_COLLECTIONS = ['adi', 'cranfield', 'npl', 'hotpotqa-500'];

export interface WordModel {
  words: string[];
  counts: Float64Array;
  /** Passage lengths in words, as observed. */
  lengths: Uint32Array;
}

export function readWordModel(dataDir = SHARED_DATA): WordModel {
  const counts = new Map<string, number>();
  const lengths: number[] = [];
  for (const name of SOURCE_COLLECTIONS) {
    const file = path.join(dataDir, name, 'corpus.jsonl');
    if (!fs.existsSync(file)) throw new Error(`The generator derives its words from ${file}, which is missing`);
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const doc = JSON.parse(line) as { title?: string; text?: string };
      const words = `${doc.title ?? ''} ${doc.text ?? ''}`.split(/\s+/).filter(Boolean);
      lengths.push(words.length);
      for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  const words = [...counts.keys()].sort();
  return { words, counts: Float64Array.from(words, (w) => counts.get(w)!), lengths: Uint32Array.from(lengths) };
}

/** Vose's alias table: draws an index with probability proportional to its weight in O(1). */
export class AliasTable {
  private readonly probability: Float64Array;
  private readonly alias: Uint32Array;

  constructor(weights: ArrayLike<number>) {
    const n = weights.length;
    let total = 0;
    for (let i = 0; i < n; i++) total += weights[i]!;
    const scaled = Float64Array.from({ length: n }, (_, i) => (weights[i]! * n) / total);
    this.probability = new Float64Array(n);
    this.alias = new Uint32Array(n);
    const small: number[] = [];
    const large: number[] = [];
    scaled.forEach((p, i) => (p < 1 ? small : large).push(i));
    while (small.length && large.length) {
      const s = small.pop()!;
      const l = large.pop()!;
      this.probability[s] = scaled[s]!;
      this.alias[s] = l;
      scaled[l] = scaled[l]! + scaled[s]! - 1;
      (scaled[l]! < 1 ? small : large).push(l);
    }
    for (const i of [...small, ...large]) this.probability[i] = 1;
  }

  /** `u1`, `u2` uniform in [0, 1). */
  draw(u1: number, u2: number): number {
    const i = Math.floor(u1 * this.probability.length);
    return u2 < this.probability[i]! ? i : this.alias[i]!;
  }
}
