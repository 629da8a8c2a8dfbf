import { runDecomposition, type DecompositionConfig } from './baselines/decomposition.ts';
import { runIrcot, type IrcotConfig } from './baselines/ircot.ts';
import { BaselineRunError, type BaselineKind, type BaselineRun } from './baselines/baseline-run.ts';
import { runOracleContext, type OracleContextConfig } from './baselines/oracle-context.ts';
import { runSingleShot, type SingleShotConfig } from './baselines/single-shot.ts';
import type { HdsConfig } from './config.ts';
import { HdsRunError, runHds } from './run-hds.ts';
import type { AgentDeps, HdsEvent, HdsRun } from './types.ts';

/** The agentic methods the workbench compares: HDS and its baselines. */
export type AgentMethod = 'hds' | BaselineKind;

/** Every method, in the order tables list them. */
export const AGENT_METHODS: readonly AgentMethod[] = ['hds', 'single-shot', 'ircot', 'decomposition', 'oracle-context'];

/** Display names of the methods. */
export const AGENT_METHOD_LABELS: Readonly<Record<AgentMethod, string>> = {
  hds: 'Hybrid Deep Searcher',
  'single-shot': 'Single-shot RAG',
  ircot: 'IRCoT',
  decomposition: 'Question decomposition',
  'oracle-context': 'Oracle context (gold passages)',
};

/** A run of any method. */
export type AgentRun = HdsRun | BaselineRun;

/** Settings of every method; only the one for the method being run is read. */
export interface AgentSettings {
  /** Hybrid Deep Searcher settings (defaults for the rest). */
  hds?: Partial<HdsConfig>;
  /** Single-shot RAG settings. */
  singleShot?: Partial<SingleShotConfig>;
  /** IRCoT settings. */
  ircot?: Partial<IrcotConfig>;
  /** Question decomposition settings. */
  decomposition?: Partial<DecompositionConfig>;
  /** Oracle-context settings. */
  oracleContext?: Partial<OracleContextConfig>;
}

/** Options of {@link runAgent}. */
export interface RunAgentOptions {
  /** Aborting stops the run; it resolves as cancelled. */
  signal?: AbortSignal;
  /** Live events (HDS only; the baselines report nothing until they finish). */
  onEvent?: (event: HdsEvent) => void;
}

/**
 * Runs one question with one method. A run that fails on the way (LLM error, retrieval failure) resolves with its
 * partial record, `status` `failed`; only invalid settings reject.
 */
export async function runAgent(
  method: AgentMethod,
  question: string,
  settings: AgentSettings,
  deps: AgentDeps,
  options: RunAgentOptions = {},
): Promise<AgentRun> {
  const { signal } = options;
  try {
    switch (method) {
      case 'hds':
        return await runHds(question, settings.hds ?? {}, deps, options);
      case 'single-shot':
        return await runSingleShot(question, settings.singleShot ?? {}, deps, { signal });
      case 'ircot':
        return await runIrcot(question, settings.ircot ?? {}, deps, { signal });
      case 'decomposition':
        return await runDecomposition(question, settings.decomposition ?? {}, deps, { signal });
      case 'oracle-context':
        return await runOracleContext(question, settings.oracleContext ?? {}, deps, { signal });
      default:
        throw new Error(`Unknown method: ${String(method)}`);
    }
  } catch (err) {
    if (err instanceof HdsRunError || err instanceof BaselineRunError) return err.run;
    throw err;
  }
}

/** The method that produced a run. */
export function agentMethodOf(run: AgentRun): AgentMethod {
  return run.kind;
}
