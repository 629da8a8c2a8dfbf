import type { HdsConfig } from './config.ts';
import type { AgentDeps, HdsEvent, HdsRun } from './types.ts';

/** What every step of one HDS run shares. */
export interface HdsRunContext {
  /** The resolved configuration. */
  cfg: HdsConfig;
  deps: AgentDeps;
  signal?: AbortSignal;
  /** ms since the run started. */
  at: () => number;
  /** Reports a live event (a faulty listener cannot break the run). */
  emit: (event: HdsEvent) => void;
  /** The run record being filled. */
  run: HdsRun;
  /** Results requested per query. */
  k: number;
  /** The turn that first searched each query successfully (H5). */
  firstTurnOf: Map<string, number>;
}
