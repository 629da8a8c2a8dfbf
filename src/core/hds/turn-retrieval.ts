import { mapWithConcurrency, raceAbort } from './concurrency.ts';
import type { QuerySchedule } from './query-schedule.ts';
import { mergeTurnResults, REPEATED_BLOCK_NOTICE, serializeResultsBlock, type ResultsBlockEntry } from './results-block.ts';
import type { HdsRunContext } from './run-context.ts';
import { sanitizedRetrievalError } from './sanitize.ts';
import type { HdsResultRecord, HdsRetrievalRecord, HdsSearchStep, RetrievedPassage } from './types.ts';

/** Failures of a turn when partial failures are not allowed (reference's message); `runHds` fails the run with it. */
export class FanOutFailure extends Error {}

/**
 * Retrieves a step's scheduled queries (at most `retrievalConcurrency` at a time, `step.k` results each), records each
 * retrieval, fills empty shown texts, adds the step's documents to the run, and writes the query-labelled results
 * block into the step and the interaction log. Throws `FanOutFailure` when a query failed and partial failures are not allowed.
 */
export async function retrieveTurn(ctx: HdsRunContext, turn: HdsSearchStep, schedule: QuerySchedule, tokenSpelling: 'spaces' | 'underscores'): Promise<void> {
  const { cfg, run, signal } = ctx;
  const executed = schedule.executed;
  const lists = await mapWithConcurrency(executed, cfg.retrievalConcurrency, (q, i) => retrieveOne(ctx, turn, q, i));
  // H5: only a query that was really searched counts as a repeat later; a failed one may be asked again.
  executed.forEach((q, i) => {
    if (turn.retrievals[i]?.status === 'ok') ctx.firstTurnOf.set(q, turn.turn);
  });
  if (turn.retrievals.length > 0) {
    turn.retrieval = {
      startMs: Math.min(...turn.retrievals.map((r) => r.startMs)),
      endMs: Math.max(...turn.retrievals.map((r) => r.endMs)),
    };
  }
  if (signal?.aborted) return;

  turn.failures = turn.retrievals
    .filter((r) => r.status === 'failed')
    .map((r) => ({ query: r.query, error: r.error ?? 'unknown retrieval error' }));
  run.retrievalFailures.push(...turn.failures);
  if (turn.failures.length > 0 && !cfg.allowPartialRetrievalFailures) {
    const detail = turn.failures.map((f) => `${f.query}: ${f.error}`).join('; ');
    throw new FanOutFailure(`Hybrid Deep Searcher retrieval failed for ${turn.failures.length} fan-out query(s): ${detail}`);
  }
  for (const record of turn.retrievals) await backfill(ctx, record);
  for (const id of mergeTurnResults(lists)) {
    if (!run.retrievedIds.includes(id)) run.retrievedIds.push(id);
  }

  const blockEntries: ResultsBlockEntry[] = schedule.entries.map((entry) => {
    if (entry.kind === 'repeat') return { query: entry.query, kind: 'repeat', firstTurn: entry.firstTurn };
    const record = turn.retrievals[executed.indexOf(entry.query)]!;
    if (record.status === 'failed') return { query: entry.query, kind: 'failed' };
    return { query: entry.query, kind: 'ok', texts: record.results.filter((r) => r.shown).map((r) => r.text) };
  });
  const notice = turn.onlyRepeats && cfg.repeatedBlock === 'notice' ? REPEATED_BLOCK_NOTICE : undefined;
  turn.resultsBlock = serializeResultsBlock(blockEntries, tokenSpelling, notice);
  run.interactionLog.push(turn.resultsBlock);
}

async function retrieveOne(ctx: HdsRunContext, turn: HdsSearchStep, query: string, index: number): Promise<RetrievedPassage[]> {
  const { at, cfg, deps, signal, emit } = ctx;
  const k = turn.k;
  const record: HdsRetrievalRecord = { query, index, k, status: 'cancelled', results: [], startMs: at(), endMs: at() };
  turn.retrievals[index] = record;
  if (signal?.aborted) return [];
  ctx.run.searchCallsUsed++;
  emit({ type: 'retrieval-start', turn: turn.turn, index, query, atMs: record.startMs });
  let passages: RetrievedPassage[] = [];
  try {
    passages = await raceAbort(deps.retriever.search(query, k, signal), signal);
    record.status = 'ok';
    record.results = passages.map((p, i) => {
      const result: HdsResultRecord = {
        id: p.id,
        score: p.score,
        text: p.text ? String(p.text) : '',
        shown: i < cfg.evidenceBudget && p.id !== undefined && p.id !== null,
      };
      if (p.title !== undefined) result.title = p.title;
      const relevance = deps.relevance?.(p.id);
      if (relevance !== undefined) result.relevance = relevance;
      return result;
    });
  } catch (err) {
    passages = [];
    if (signal?.aborted) {
      record.status = 'cancelled';
    } else {
      record.status = 'failed';
      record.error = sanitizedRetrievalError(err);
    }
  }
  record.endMs = at();
  emit({ type: 'retrieval-end', turn: turn.turn, index, record });
  return passages;
}

/** Fills empty texts of shown results with one `getTexts` call per query (the reference's backfill). */
async function backfill(ctx: HdsRunContext, record: HdsRetrievalRecord): Promise<void> {
  const { deps, signal } = ctx;
  if (!deps.getTexts || record.status !== 'ok') return;
  const missing = record.results.filter((r) => r.shown && r.text === '');
  if (missing.length === 0) return;
  const texts = await raceAbort(
    deps.getTexts(
      missing.map((r) => r.id),
      signal,
    ),
    signal,
  );
  missing.forEach((r, i) => {
    const text = texts[i];
    r.text = text ? String(text) : '';
  });
}
