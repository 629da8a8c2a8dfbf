// The timeline's view of an HDS run: built live from events, or from a finished (saved) run for replay.
import type {
  HdsAction,
  HdsActionMarker,
  HdsConfig,
  HdsEvent,
  HdsFinalCallRecord,
  HdsRepeatedQuery,
  HdsRetrievalFailure,
  HdsRetrievalRecord,
  HdsRun,
  HdsSearchStep,
  HdsTerminatedBy,
  HdsTurnRecord,
  LlmCallRecord,
  TimeSpan,
} from '../../core/index.ts';
import { TextPieces } from './text-pieces.ts';

/** A retrieval that has started and not ended yet. */
export interface RunningRetrieval {
  query: string;
  index: number;
  startMs: number;
  status: 'running';
}

/** One card of the timeline: the question's own search (turn 0), a plan turn, or the final-prompt fallback call. */
export interface TimelineTurn {
  /** 1-based; 0 for the question's own search; the fallback is numbered after the last plan turn. */
  turn: number;
  phase: 'question' | 'plan' | 'final';
  prompt: string;
  /** The response so far (all of it once ended). */
  response: string;
  /** Reasoning so far. */
  reasoning: string;
  /** While streaming: the same texts in pieces, which the card renders (never rebuilding the whole text per frame). */
  live?: { response: TextPieces; reasoning: TextPieces };
  /** The finished call (timings, tokens), once it ended. */
  llm?: LlmCallRecord;
  /** When the call started, ms since the run started. */
  startMs: number;
  /** Search calls left when the turn started (plan turns). */
  remainingSearchCalls?: number;
  action?: HdsAction;
  marker?: HdsActionMarker;
  /** The queries came from a "Search queries:" list without the block tokens (`heading-list-query-block`). */
  headingList?: boolean;
  /** Only the reply up to its first query block went into the interaction log (`log-cut-after-query-block`). */
  logCutAfterBlock?: boolean;
  /** The model began writing search results itself. */
  inventedResults?: boolean;
  /** Every query of the block had run in an earlier turn. */
  onlyRepeats?: boolean;
  executed: string[];
  repeated: HdsRepeatedQuery[];
  cutByCap: string[];
  cutByBudget: string[];
  /** Results requested per query. */
  k?: number;
  retrievals: Array<HdsRetrievalRecord | RunningRetrieval>;
  failures: HdsRetrievalFailure[];
  retrieval?: TimeSpan;
  status: 'streaming' | 'retrieving' | 'complete' | 'cancelled' | 'failed';
}

/** Everything the timeline shows. */
export interface TimelineView {
  question: string;
  config: HdsConfig;
  startedAt: string;
  turns: TimelineTurn[];
  searchCallsUsed: number;
  status: 'running' | 'completed' | 'cancelled' | 'failed';
  answer: string;
  terminatedBy?: HdsTerminatedBy;
  error?: string;
  /** The finished run, once done. */
  run?: HdsRun;
}

function emptyTurn(turn: number, phase: TimelineTurn['phase'], prompt: string, startMs: number): TimelineTurn {
  return { turn, phase, prompt, response: '', reasoning: '', startMs, executed: [], repeated: [], cutByCap: [], cutByBudget: [], retrievals: [], failures: [], status: 'streaming' };
}

function fromTurnRecord(record: HdsTurnRecord): TimelineTurn {
  return {
    turn: record.turn,
    phase: 'plan',
    prompt: record.llm.prompt,
    response: record.llm.response,
    reasoning: record.llm.reasoning,
    llm: record.llm,
    startMs: record.llm.startMs,
    remainingSearchCalls: record.remainingSearchCalls,
    ...(record.action ? { action: record.action } : {}),
    ...(record.marker ? { marker: record.marker } : {}),
    ...(record.headingList ? { headingList: true } : {}),
    ...(record.logCutAfterBlock ? { logCutAfterBlock: true } : {}),
    ...(record.inventedResults ? { inventedResults: true } : {}),
    ...(record.onlyRepeats ? { onlyRepeats: true } : {}),
    executed: record.queriesExecuted,
    repeated: record.queriesRepeated,
    cutByCap: record.queriesCutByCap,
    cutByBudget: record.queriesCutByBudget,
    k: record.k,
    retrievals: record.retrievals,
    failures: record.failures,
    ...(record.retrieval ? { retrieval: record.retrieval } : {}),
    status: record.status,
  };
}

function fromFallback(call: HdsFinalCallRecord, turn: number, status: HdsRun['status'], answer: string): TimelineTurn {
  return {
    ...emptyTurn(turn, 'final', call.prompt, call.startMs),
    response: call.response,
    reasoning: call.reasoning,
    llm: call,
    ...(call.cancelled || call.error ? {} : { action: call.action ?? ({ kind: 'answer', text: answer } as HdsAction) }),
    ...(call.marker ? { marker: call.marker } : {}),
    status: call.cancelled ? 'cancelled' : call.error ? 'failed' : status === 'failed' ? 'failed' : 'complete',
  };
}

function fromQuestionSearch(step: HdsSearchStep): TimelineTurn {
  return {
    ...emptyTurn(0, 'question', '', step.retrieval?.startMs ?? 0),
    executed: step.queriesExecuted,
    k: step.k,
    retrievals: step.retrievals,
    failures: step.failures,
    ...(step.retrieval ? { retrieval: step.retrieval } : {}),
    status: step.status,
  };
}

/** The timeline of a finished run (replay without a model). */
export function timelineFromRun(run: HdsRun): TimelineView {
  const turns = [...(run.questionSearch ? [fromQuestionSearch(run.questionSearch)] : []), ...run.turns.map(fromTurnRecord)];
  if (run.fallback) turns.push(fromFallback(run.fallback, run.turns.length + 1, run.status, run.answer));
  return {
    question: run.question,
    config: run.config,
    startedAt: run.startedAt,
    turns,
    searchCallsUsed: run.searchCallsUsed,
    status: run.status,
    answer: run.answer,
    terminatedBy: run.terminatedBy,
    ...(run.error !== undefined ? { error: run.error } : {}),
    run,
  };
}

/** Applies one live event; returns a new view (the old one is not changed). */
export function applyHdsEvent(view: TimelineView | null, event: HdsEvent): TimelineView | null {
  if (event.type === 'run-start') {
    return { question: event.question, config: event.config, startedAt: event.startedAt, turns: [], searchCallsUsed: 0, status: 'running', answer: '' };
  }
  if (event.type === 'done') return timelineFromRun(event.run);
  if (!view) return view;
  const update = (turn: number, phase: TimelineTurn['phase'], change: (t: TimelineTurn) => TimelineTurn): TimelineView => ({
    ...view,
    turns: view.turns.map((t) => (t.turn === turn && t.phase === phase ? change(t) : t)),
  });
  switch (event.type) {
    case 'turn-start': {
      const turn = emptyTurn(event.turn, event.phase, event.prompt, event.atMs);
      if (event.phase === 'plan') turn.remainingSearchCalls = view.config.maxSearchCalls - view.searchCallsUsed;
      return { ...view, turns: [...view.turns, turn] };
    }
    case 'llm-delta':
      return update(event.turn, event.phase, (t) => ({
        ...t,
        response: t.response + event.content,
        reasoning: t.reasoning + event.reasoning,
        live: {
          response: (t.live?.response ?? TextPieces.EMPTY.append(t.response)).append(event.content),
          reasoning: (t.live?.reasoning ?? TextPieces.EMPTY.append(t.reasoning)).append(event.reasoning),
        },
      }));
    case 'llm-end':
      return update(event.turn, event.phase, ({ live: _live, ...t }) => ({ ...t, llm: event.call, response: event.call.response, reasoning: event.call.reasoning }));
    case 'action':
      return update(event.turn, 'plan', (t) => ({ ...t, action: event.action, marker: event.marker }));
    case 'queries':
      return update(event.turn, 'plan', (t) => ({
        ...t,
        executed: event.executed,
        repeated: event.repeated,
        cutByCap: event.cutByCap,
        cutByBudget: event.cutByBudget,
        k: event.k,
        status: event.executed.length > 0 ? 'retrieving' : t.status,
      }));
    case 'question-search-start':
      return { ...view, turns: [...view.turns, { ...emptyTurn(0, 'question', '', event.atMs), executed: [event.query], k: event.k, status: 'retrieving' }] };
    case 'question-search-end':
      return update(0, 'question', () => fromQuestionSearch(event.record));
    case 'retrieval-start': {
      const next = update(event.turn, searchPhase(event.turn), (t) => {
        const retrievals = [...t.retrievals];
        retrievals[event.index] = { query: event.query, index: event.index, startMs: event.atMs, status: 'running' };
        return { ...t, retrievals };
      });
      return { ...next, searchCallsUsed: view.searchCallsUsed + 1 };
    }
    case 'retrieval-end':
      return update(event.turn, searchPhase(event.turn), (t) => {
        const retrievals = [...t.retrievals];
        retrievals[event.index] = event.record;
        return { ...t, retrievals };
      });
    case 'turn-end':
      return update(event.turn, 'plan', () => fromTurnRecord(event.record));
    default:
      return view;
  }
}

/** The card a retrieval of `turn` belongs to: turn 0 is the question's own search. */
function searchPhase(turn: number): TimelineTurn['phase'] {
  return turn === 0 ? 'question' : 'plan';
}

/** What kind of action a card shows. */
export type ActionBadge = 'queries' | 'answer' | 'unmarked' | 'fallback' | 'pending' | 'none';

export function actionBadge(turn: TimelineTurn): ActionBadge {
  if (turn.phase === 'question') return 'queries';
  if (turn.phase === 'final') return 'fallback';
  if (!turn.action) return turn.status === 'streaming' ? 'pending' : 'none';
  if (turn.action.kind === 'queries') return 'queries';
  return turn.action.unmarked || turn.marker === 'none' ? 'unmarked' : 'answer';
}
