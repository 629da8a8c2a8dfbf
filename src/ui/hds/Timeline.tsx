import { useEffect, useRef, useState } from 'react';
import { exactMatch, tokenF1, type HdsTerminatedBy } from '../../core/index.ts';
import type { RelevanceWording } from './ResultsList.tsx';
import type { TimelineView } from './timeline-model.ts';
import { ms } from './TimingBars.tsx';
import { TurnCard } from './TurnCard.tsx';

const TERMINATION: Record<HdsTerminatedBy, string> = {
  answer: 'the model answered',
  max_turns: 'max_turns reached',
  max_search_calls: 'search budget used up',
  answer_fallback: 'empty answer; the final prompt answered',
  max_turns_fallback: 'max_turns reached; the final prompt answered',
  max_search_calls_fallback: 'search budget used up; the final prompt answered',
  repeated_block: 'a block only repeated earlier queries',
  repeated_block_fallback: 'a block only repeated earlier queries; the final prompt answered',
  cancelled: 'cancelled',
  failed: 'failed',
};

function isEditable(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || el.isContentEditable === true;
}

/**
 * An HDS run turn by turn, live or replayed: one card per turn, budget meters, the final answer with EM/F1 when a gold
 * answer is known. ← and → (or the buttons) step through the turns.
 */
export function Timeline(props: {
  view: TimelineView;
  /** Gold answers of the question, when known. */
  answers?: readonly string[];
  wording?: RelevanceWording;
  /** Start at the first turn (replay) instead of following the newest (live). */
  startAtFirst?: boolean;
  onOpenDocument?: (docId: string, query: string) => void;
}) {
  const { view, answers, onOpenDocument } = props;
  const wording = props.wording ?? (answers && answers.length > 0 ? 'supporting' : 'relevant');
  const count = view.turns.length;
  // null: follow the newest turn (live); a number: the turn the user stepped to.
  const [chosen, setChosen] = useState<number | null>(props.startAtFirst ? 0 : null);
  const selected = count === 0 ? -1 : Math.min(chosen ?? count - 1, count - 1);
  const cards = useRef<Array<HTMLElement | null>>([]);
  const stepped = useRef(false);

  const step = (delta: number) => {
    if (count === 0) return;
    stepped.current = true;
    setChosen(Math.max(0, Math.min(count - 1, selected + delta)));
  };
  const stepRef = useRef(step);
  stepRef.current = step;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isEditable(e.target)) return;
      if (document.querySelector('dialog[open]')) return;
      if (e.key === 'ArrowLeft') {
        e.preventDefault();
        stepRef.current(-1);
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        stepRef.current(1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    if (!stepped.current) return;
    stepped.current = false;
    cards.current[selected]?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [selected]);

  const planTurns = view.turns.filter((t) => t.phase === 'plan').length;
  const { maxTurns, maxSearchCalls } = view.config;
  const left = Math.max(0, maxSearchCalls - view.searchCallsUsed);
  const em = answers && answers.length > 0 && view.status !== 'running' ? exactMatch(view.answer, answers) : null;
  const f1 = answers && answers.length > 0 && view.status !== 'running' ? tokenF1(view.answer, answers) : null;
  const tokens = view.run?.tokenUsage;

  return (
    <section className="timeline" aria-label="Timeline">
      <div className="timeline-head">
        <p className="timeline-question">
          <strong>Question:</strong> <span>{view.question}</span>
        </p>
        <div className="meters">
          <label>
            Turn {planTurns} of {maxTurns} <meter min={0} max={maxTurns} value={planTurns} aria-label="Turns used" />
          </label>
          <label data-testid="search-meter">
            Search calls: {view.searchCallsUsed} used, {left} left of {maxSearchCalls}{' '}
            <meter min={0} max={maxSearchCalls} value={view.searchCallsUsed} aria-label="Search calls used" />
          </label>
          {tokens && <span className="meta">tokens {tokens.totalTokens.toLocaleString('en-US')}</span>}
          {view.run && <span className="meta">{ms(view.run.durationMs)}</span>}
          <span className={`badge status-${view.status}`} data-testid="run-status">
            {view.status === 'running' ? 'running' : view.status}
          </span>
        </div>
        <div className="row stepper">
          <button type="button" onClick={() => step(-1)} disabled={selected <= 0} aria-label="Previous turn">
            ← Previous
          </button>
          <span className="meta" data-testid="turn-position">
            {count === 0 ? 'waiting for the first turn…' : `${view.turns[selected]?.phase === 'final' ? 'Final prompt' : view.turns[selected]?.phase === 'question' ? 'Question search' : `Turn ${view.turns[selected]?.turn}`} · card ${selected + 1} of ${count}`}
          </span>
          <button type="button" onClick={() => step(1)} disabled={selected >= count - 1} aria-label="Next turn">
            Next →
          </button>
          {chosen !== null && view.status === 'running' && (
            <button type="button" onClick={() => setChosen(null)}>
              Follow the newest turn
            </button>
          )}
          <span className="hint">← / → step through the turns</span>
        </div>
      </div>

      {view.turns.map((turn, i) => (
        <TurnCard
          key={`${turn.phase}-${turn.turn}`}
          ref={(el) => {
            cards.current[i] = el;
          }}
          turn={turn}
          maxTurns={maxTurns}
          maxSearchCalls={maxSearchCalls}
          current={i === selected}
          wording={wording}
          onSelect={() => setChosen(i)}
          onOpenDocument={onOpenDocument}
        />
      ))}

      {view.status !== 'running' && (
        <div className={`final-answer status-${view.status}`} data-testid="final-answer">
          <h4>Final answer</h4>
          <p className="answer-text">{view.answer || '(no answer)'}</p>
          <p className="meta">
            {view.terminatedBy ? `Stopped: ${TERMINATION[view.terminatedBy] ?? view.terminatedBy}.` : ''}
            {answers && answers.length > 0 ? ` Gold: ${answers.join(' | ')}.` : ''}
          </p>
          {em !== null && f1 !== null && (
            <p data-testid="answer-scores">
              <span className={`badge ${em === 1 ? 'relevant' : 'bad'}`}>EM {em}</span> <span className="badge">F1 {f1.toFixed(2)}</span>
            </p>
          )}
          {view.error && <p className="error">{view.error}</p>}
        </div>
      )}
    </section>
  );
}
