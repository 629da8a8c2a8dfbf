import type { ScoredDoc } from '../ranking/index.ts';
import { fuseConvex, type ConvexOptions } from './convex.ts';
import { fuseRrf, type RrfOptions } from './rrf.ts';

/** A fusion method and its parameters, as saved in a run's configuration. */
export type FusionConfig =
  | ({ /** Reciprocal rank fusion. */ method: 'rrf' } & Omit<RrfOptions, 'topK'>)
  | ({ /** Convex combination of normalised scores. */ method: 'cc' } & Omit<ConvexOptions, 'topK'>);

/** Fuses two ranked lists with the configured method and returns the first `topK` (all when omitted). */
export function fuse(list1: ScoredDoc[], list2: ScoredDoc[], config: FusionConfig, topK?: number): ScoredDoc[] {
  switch (config.method) {
    case 'rrf':
      return fuseRrf(list1, list2, { ...config, topK });
    case 'cc':
      return fuseConvex(list1, list2, { ...config, topK });
    default:
      throw new Error(`Unknown fusion method: ${String((config as { method: unknown }).method)}`);
  }
}
