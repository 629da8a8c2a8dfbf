import { forwardRef } from 'react';
import type { HdsFinalCallRecord, HdsRetrievalRecord, LlmCallRecord } from '../../core/index.ts';
import { ResultsList, type RelevanceWording } from './ResultsList.tsx';
import { StreamingText } from './StreamingText.tsx';
import { actionBadge, type TimelineTurn } from './timeline-model.ts';
import { ms, TimingBars } from './TimingBars.tsx';

const ENDED_BY_TEXT: Record<NonNullable<LlmCallRecord['endedBy']>, string> = {
  'stop-sequence': 'stopped at the query-block end',
  max_tokens: 'cut by max_tokens',
  'end-of-turn': 'model ended its turn',
  'end-of-stream': 'stream ended',
  repetition: 'ended: the reply looped',
  'misspelled-marker': 'ended at a misspelled end marker',
};

const BADGE_TEXT: Record<ReturnType<typeof actionBadge>, string> = {
  queries: 'search',
  answer: 'answer',
  unmarked: 'unmarked answer',
  fallback: 'fallback answer',
  pending: 'thinking…',
  none: 'no action',
};

/** One turn of an HDS run. Everything the model or the corpus wrote is rendered as text. */
export const TurnCard = forwardRef<
  HTMLElement,
  {
    turn: TimelineTurn;
    maxTurns: number;
    maxSearchCalls: number;
    current: boolean;
    wording: RelevanceWording;
    onSelect(): void;
    onOpenDocument?: (docId: string, query: string) => void;
  }
>(function TurnCard(props, ref) {
  const { turn, maxTurns, maxSearchCalls, current, wording, onOpenDocument } = props;
  const badge = actionBadge(turn);
  const streaming = turn.status === 'streaming';
  const question = turn.phase === 'question';
  const title = turn.phase === 'final' ? `Final prompt (after turn ${turn.turn - 1})` : question ? 'The question, searched before turn 1' : `Turn ${turn.turn} of ${maxTurns}`;
  const usage = turn.llm?.usage;
  return (
    <article
      ref={ref}
      className={`turn-card${current ? ' current' : ''} status-${turn.status}`}
      aria-label={turn.phase === 'final' ? 'Final prompt' : question ? 'Question search' : `Turn ${turn.turn}`}
      aria-current={current ? 'step' : undefined}
      data-testid="turn-card"
      onClick={props.onSelect}
    >
      <header className="turn-header">
        <h4>{title}</h4>
        <span className={`badge action-${badge}`} data-testid="action-badge">
          {BADGE_TEXT[badge]}
        </span>
        {turn.llm?.endedBy && (
          <span className={`badge ended-${turn.llm.endedBy}${turn.llm.endedBy === 'max_tokens' || turn.llm.endedBy === 'repetition' ? ' bad' : ''}`} data-testid="ended-by" title={turn.llm.guard ? `Why the reply ended: the workbench ended it at ${turn.llm.guard.rule === 'repetition' ? 'a span repeated' : 'a misspelled end marker'}: “${turn.llm.guard.text}” (${turn.llm.guard.received.length} characters received, ${turn.llm.response.length} kept)` : 'Why the reply ended'}>
            {ENDED_BY_TEXT[turn.llm.endedBy]}
          </span>
        )}
        {turn.inventedResults && (
          <span className="badge bad" data-testid="invented-results" title="The model began writing search results itself; they were never used">
            invented results
          </span>
        )}
        {turn.onlyRepeats && (
          <span className="badge bad" data-testid="only-repeats" title="Every query of this block had already run: nothing new was searched">
            repeated block
          </span>
        )}
        {turn.status === 'cancelled' && <span className="badge bad">cancelled</span>}
        {turn.status === 'failed' && <span className="badge bad">failed</span>}
        {turn.remainingSearchCalls !== undefined && (
          <span className="meta">
            search calls left at start: {turn.remainingSearchCalls} of {maxSearchCalls}
          </span>
        )}
        {question && (
          <span className="meta" title="question_search_k: the question itself is searched before the model plans; its results open the interaction log">
            no LLM call · one search call · top {turn.k}
          </span>
        )}
        <span className="meta">
          {question ? '' : turn.llm ? `LLM ${ms(turn.llm.endMs - turn.llm.startMs)}` : 'LLM streaming…'}
          {turn.llm?.firstTokenMs !== undefined ? ` (first token ${ms(turn.llm.firstTokenMs - turn.llm.startMs)})` : ''}
          {turn.retrieval ? ` · retrieval ${ms(turn.retrieval.endMs - turn.retrieval.startMs)}` : ''}
          {usage ? ` · tokens ${usage.promptTokens} in / ${usage.completionTokens} out` : ''}
        </span>
      </header>

      {!question && turn.reasoning !== '' && (
        <details className="reasoning" open>
          <summary>Reasoning ({turn.reasoning.length.toLocaleString('en-US')} characters)</summary>
          <StreamingText text={turn.live?.reasoning ?? turn.reasoning} empty="" label="Reasoning" />
        </details>
      )}
      {!question && (
        <details className="response" open={streaming || turn.action === undefined}>
          <summary>Model output</summary>
          <StreamingText text={turn.live?.response ?? turn.response} empty={streaming ? '…' : '(empty)'} testId="model-output" label="Model output" />
        </details>
      )}
      {turn.llm?.guard && (
        <details className="guard-cut" data-testid="guard-cut">
          <summary>
            The workbench ended this reply {turn.llm.guard.rule === 'repetition' ? `where it repeated “${turn.llm.guard.text}” over and over` : `at the misspelled end marker “${turn.llm.guard.text}”`}: {turn.llm.response.length.toLocaleString('en-US')} of{' '}
            {turn.llm.guard.received.length.toLocaleString('en-US')} characters received kept (plan guard)
          </summary>
          <pre>{turn.llm.guard.received}</pre>
        </details>
      )}
      {turn.llm?.error && <p className="error">The model call failed: {turn.llm.error}</p>}
      {turn.llm?.messages && <MessagesSent call={turn.llm} />}

      {turn.action?.kind === 'answer' && (
        <div className="turn-answer">
          <strong>{turn.phase === 'final' ? 'Fallback answer' : 'Answer'}:</strong> <span data-testid="turn-answer">{turn.action.text || '(empty)'}</span>
          {badge === 'unmarked' && <p className="hint">The model used no answer marker or query block; its whole reply was taken as the answer (H4).</p>}
          {turn.action.unrunQueries && (
            <p className="hint" data-testid="unrun-queries-hint">
              The reply also wrote a query block, but no turn was left to run it
              {turn.action.unrunQueries.length > 0 ? ` (${turn.action.unrunQueries.map((q) => `“${q}”`).join(', ')})` : ''}; the block is not part of the answer
              (extension final-answer-without-query-block).
            </p>
          )}
        </div>
      )}

      {turn.headingList && (
        <p className="hint" data-testid="heading-list-hint">
          The model listed its queries under a “Search queries:” heading without the query-block tokens; they were read as a query block (extension
          heading-list-query-block) and counted as a format violation.
        </p>
      )}
      {turn.logCutAfterBlock && (
        <p className="hint" data-testid="log-cut-hint">
          Only the reply up to the end of its first query block went into the interaction log; the rest was never acted on (extension
          log-cut-after-query-block).
        </p>
      )}
      {(turn.executed.length > 0 || turn.repeated.length > 0 || turn.cutByCap.length > 0 || turn.cutByBudget.length > 0) && (
        <ul className="chips" aria-label={`Queries of turn ${turn.turn}`}>
          {turn.executed.map((q) => (
            <li key={`e-${q}`} className="chip" data-testid="query-chip">
              {q}
            </li>
          ))}
          {turn.repeated.map((r) => (
            <li key={`r-${r.query}`} className="chip muted" title="Not retrieved again: no search call spent (H5)">
              {r.query} <em>already searched in turn {r.firstTurn}</em>
            </li>
          ))}
          {turn.cutByCap.map((q) => (
            <li key={`c-${q}`} className="chip cut" title="Beyond max_parallel_queries">
              {q} <em>over the parallel-query cap</em>
            </li>
          ))}
          {turn.cutByBudget.map((q) => (
            <li key={`b-${q}`} className="chip cut" title="No search calls left">
              {q} <em>no search calls left</em>
            </li>
          ))}
        </ul>
      )}

      {turn.retrievals.length > 0 && (
        <>
          <TimingBars turn={turn} />
          <div className="query-results">
            {turn.retrievals.map((r) =>
              !r ? null : (
                <section key={r.index} className="query-result" aria-label={`Query: ${r.query}`}>
                  <h5>
                    <span className="chip">{r.query}</span>
                    {'endMs' in r ? (
                      <span className="meta">
                        {' '}
                        {r.status === 'ok' ? `${r.results.length} result(s)` : r.status} · {ms(r.endMs - r.startMs)}
                      </span>
                    ) : (
                      <span className="meta"> searching…</span>
                    )}
                  </h5>
                  {'endMs' in r && r.status === 'ok' && <ResultsList query={r.query} results={r.results} wording={wording} onOpenDocument={onOpenDocument} />}
                  {'endMs' in r && r.status === 'failed' && <p className="error">{(r as HdsRetrievalRecord).error}</p>}
                </section>
              ),
            )}
          </div>
        </>
      )}
      {turn.failures.length > 0 && (
        <div className="failures" role="note">
          <strong>Failed retrievals:</strong>
          <ul>
            {turn.failures.map((f) => (
              <li key={f.query}>
                {f.query}: {f.error}
              </li>
            ))}
          </ul>
        </div>
      )}
    </article>
  );
});

/** The exact messages of a call (system, user, assistant pre-fill) and its stop sequences, one click away. */
function MessagesSent({ call }: { call: HdsFinalCallRecord }) {
  const messages = call.messages ?? [];
  return (
    <details className="messages-sent" data-testid="messages-sent">
      <summary>
        Messages sent ({messages.map((m) => m.role).join(', ')})
        {call.finalAnswer ? ` · answer asked as ${call.finalAnswer.applied}${call.finalAnswer.applied !== call.finalAnswer.requested ? ` (${call.finalAnswer.requested} asked; the server cannot continue a pre-filled message)` : ''}` : ''}
      </summary>
      {messages.map((m, i) => (
        <div key={i} className={`message role-${m.role}`}>
          <strong>{m.role === 'assistant' ? 'assistant (pre-filled; the reply continues it)' : m.role}</strong>
          <pre>{m.content}</pre>
        </div>
      ))}
      {call.stop && (
        <p className="meta" data-testid="stop-sequences">
          Stop sequences: {call.stop.map((s) => `“${s}”`).join(', ')}
          {call.markerRestored ? ` · the server consumed “${call.markerRestored}”, put back before parsing` : ''}
        </p>
      )}
    </details>
  );
}
