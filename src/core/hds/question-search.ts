import { abortError } from '../abort/index.ts';
import type { HdsRunContext } from './run-context.ts';
import { scheduleQueries } from './query-schedule.ts';
import { serializeQueryBlock } from './results-block.ts';
import { retrieveTurn } from './turn-retrieval.ts';
import type { HdsSearchStep } from './types.ts';

/**
 * The search for the question itself before the first plan turn (extension `question-search`, `questionSearchK` > 0):
 * one search call for `questionSearchK` results, recorded as `run.questionSearch` (turn 0). The interaction log opens
 * with a query block holding the question and its results block, so the first plan turn reads what single-shot RAG
 * reads, laid out as after a turn of the model's (a log that opened with a bare results block had the 1.5B model write
 * the next prompt's "Turn: 2/3" header as its reply); the question asked again later is a repeat (H5).
 */
export async function questionSearch(ctx: HdsRunContext): Promise<void> {
  const { cfg, run, signal, emit, at } = ctx;
  const query = run.question;
  const step: HdsSearchStep = { turn: 0, queriesExecuted: [query], k: cfg.questionSearchK, retrievals: [], failures: [], status: 'complete' };
  run.questionSearch = step;
  emit({ type: 'question-search-start', query, k: step.k, atMs: at() });
  run.interactionLog.push(serializeQueryBlock([query]));
  try {
    await retrieveTurn(ctx, step, scheduleQueries([query], ctx.firstTurnOf, 1, cfg.maxSearchCalls), 'spaces');
  } catch (err) {
    step.status = signal?.aborted ? 'cancelled' : 'failed';
    throw err;
  }
  if (signal?.aborted) {
    step.status = 'cancelled';
    throw abortError();
  }
  emit({ type: 'question-search-end', record: step });
}
