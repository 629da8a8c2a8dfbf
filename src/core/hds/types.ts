import type { ChatMessage, LlmDescription, LlmProvider, TokenUsage } from '../llm/index.ts';
import type { ScoredAnswer } from './answer-rule.ts';
import type { HdsConfig } from './config.ts';
import type { FinalAnswerMode } from './final-answer.ts';
import type { ReplyEnding } from './plan-stop.ts';
import type { HdsAction, HdsActionMarker, HdsTokenSpelling } from './parse-action.ts';

/** One search result as the agent sees it. */
export interface RetrievedPassage {
  /** Document id in the corpus. */
  id: string;
  /** Higher is better. */
  score: number;
  /** Passage text; may be empty when the retriever returns ids only (see `AgentDeps.getTexts`). */
  text: string;
  /** Document title, when the corpus has one. */
  title?: string;
}

/** Any retrieval pipeline of the workbench, adapted to free-text queries. */
export interface TextRetriever {
  /** The top `k` passages for `text`, best first. Should stop early when `signal` is aborted. */
  search(text: string, k: number, signal?: AbortSignal): Promise<RetrievedPassage[]>;
}

/** What an agent loop needs from its surroundings. */
export interface AgentDeps {
  /** The chat model. */
  llm: LlmProvider;
  /** The search tool. */
  retriever: TextRetriever;
  /** Texts for passages returned without one, aligned with `ids` ('' for unknown ids). One call per query. */
  getTexts?: (ids: string[], signal?: AbortSignal) => Promise<string[]>;
  /** Qrels relevance of a document for the current question (undefined: not judged). */
  relevance?: (docId: string) => number | undefined;
  /** Milliseconds on a monotonic clock (default `performance.now()`); offsets in records are relative to the run start. */
  now?: () => number;
  /**
   * A system message put before the HDS plan prompts (a chat setting beyond the reference, which sends none); blank or
   * unset sends none. The final prompt never gets it (H10), nor do the baselines.
   */
  systemPrompt?: string;
  /** The gold supporting documents of the question, for the oracle-context baseline (ids, best first). */
  goldIds?: readonly string[];
}

/** A start/end pair in ms since the run started. */
export interface TimeSpan {
  /** Start, ms since the run started. */
  startMs: number;
  /** End, ms since the run started. */
  endMs: number;
}

/** One LLM call of a run. */
export interface LlmCallRecord extends TimeSpan {
  /** The prompt sent (as one user message). */
  prompt: string;
  /** The system message sent before the prompt, when one was (HDS calls with `AgentDeps.systemPrompt` only). */
  systemPrompt?: string;
  /** The response content exactly as received (partial when cancelled). */
  response: string;
  /** Reasoning: the provider's separate reasoning plus any `<think>` text of the response (H2). */
  reasoning: string;
  /** ms since run start when the first streamed piece arrived. */
  firstTokenMs?: number;
  /** Token counts, when the server reported them. */
  usage?: TokenUsage;
  /** The server's finish reason, when reported. */
  finishReason?: string;
  /** The messages exactly as sent (system, user, assistant pre-fill); absent on runs saved before they were kept. */
  messages?: ChatMessage[];
  /** The stop sequences sent (H9). */
  stop?: string[];
  /** The stop sequence the server said ended the reply. */
  stopSequence?: string;
  /** The end-of-queries marker put back after the server consumed it (H9); `response` includes it. */
  markerRestored?: string;
  /** Why the reply ended (H9). */
  endedBy?: ReplyEnding;
  /**
   * Set when the plan guard (extension plan-guard) ended the call: its rule, the repeated span or misspelled marker,
   * and the reply as received up to then (`response` is the reply kept).
   */
  guard?: { rule: 'repetition' | 'misspelled-marker'; text: string; received: string };
  /** True when the run was cancelled during this call. */
  cancelled?: boolean;
  /** Plain-words error, when the call failed. */
  error?: string;
}

/** The final-prompt call with the answer read from its response (H8). */
export interface HdsFinalCallRecord extends LlmCallRecord {
  /** The extracted answer; absent when the call was cancelled or failed. */
  action?: Extract<HdsAction, { kind: 'answer' }>;
  /** The marker the answer was read from (`none`: the trimmed text, flagged `unmarked`). */
  marker?: Exclude<HdsActionMarker, 'query-block'>;
  /** How the answer was asked for (H10): the mode configured and the one applied (they differ when a provider cannot continue a pre-filled message). */
  finalAnswer?: { requested: FinalAnswerMode; applied: FinalAnswerMode };
  /** The assistant pre-fill the reply continues (`boxed-prefix`); the answer is read from prefix + reply. */
  prefix?: string;
  /** Under `finalContext: 'passages'`: the ids of the passages the prompt gave, in its order. */
  contextIds?: string[];
}

/** One result of one query, as recorded. */
export interface HdsResultRecord {
  /** Document id. */
  id: string;
  /** Retriever score. */
  score: number;
  /** The text (after backfill for shown results). */
  text: string;
  /** Document title, when known. */
  title?: string;
  /** Whether it was within `evidenceBudget` and so shown to the model. */
  shown: boolean;
  /** Qrels relevance, when the caller gave a relevance lookup and the document is judged. */
  relevance?: number;
}

/** One retrieval (one query of a turn). */
export interface HdsRetrievalRecord extends TimeSpan {
  /** The query text. */
  query: string;
  /** Position of the query among the turn's executed queries. */
  index: number;
  /** Results requested. */
  k: number;
  /** `cancelled` also for queries that never started. */
  status: 'ok' | 'failed' | 'cancelled';
  /** Results in retriever order (empty unless `ok`). */
  results: HdsResultRecord[];
  /** Sanitised error, `<ErrorName>: retrieval failed`, when failed. */
  error?: string;
}

/** A query of a turn skipped because the run already executed it (H5). */
export interface HdsRepeatedQuery {
  /** The query text. */
  query: string;
  /** The turn that executed it. */
  firstTurn: number;
}

/** A failed retrieval as the reference reports it. */
export interface HdsRetrievalFailure {
  /** The query text. */
  query: string;
  /** `<ErrorName>: retrieval failed` (never the raw message). */
  error: string;
}

/** The searches of one step of a run: a plan turn's query block, or the question's own search (turn 0). */
export interface HdsSearchStep {
  /** 1-based turn number; 0 for the question's own search before turn 1 (`questionSearchK`). */
  turn: number;
  /** Queries retrieved in this step, in order. */
  queriesExecuted: string[];
  /** Results requested per query. */
  k: number;
  /** One per executed query, in query order. */
  retrievals: HdsRetrievalRecord[];
  /** Failures of this step. */
  failures: HdsRetrievalFailure[];
  /** The results block appended to the log (search steps only). */
  resultsBlock?: string;
  /** Span of the retrieval phase (first start to last end), when queries ran. */
  retrieval?: TimeSpan;
  /** Every query of the turn's block had run in an earlier turn: the turn searched nothing new. */
  onlyRepeats?: boolean;
  /** How the step ended. */
  status: 'complete' | 'cancelled' | 'failed';
}

/** Everything about one plan turn (H6). */
export interface HdsTurnRecord extends HdsSearchStep {
  /** Search calls left when the turn started. */
  remainingSearchCalls: number;
  /** The plan-prompt call. */
  llm: LlmCallRecord;
  /** Parsed action; absent when the turn was cancelled or failed before the response was complete. */
  action?: HdsAction;
  /** The marker that decided the action (`none` = unmarked, H4). */
  marker?: HdsActionMarker;
  /** Spelling of the query tokens the model used (H1). */
  tokenSpelling?: HdsTokenSpelling;
  /** The query block had no closing token; the rest of the response was read as queries. */
  unterminatedQueryBlock?: boolean;
  /**
   * The queries were a list under a "Search queries:" heading, without the block tokens, read as a query block
   * (extension `heading-list-query-block`); a format violation, counted as such.
   */
  headingList?: boolean;
  /** The model began writing search results itself (it wrote, or was stopped at, a begin-results marker). */
  inventedResults?: boolean;
  /** An unclosed `<think>` ended at the query block (`think-closes-at-query-block`). */
  thinkClosedAtBlock?: boolean;
  /** True when the answer came from a `\\boxed{` the reply never closed (cut by max_tokens): the text after it. */
  unterminatedAnswer?: boolean;
  /**
   * The interaction log got the reply only through its first query block's end token: text after the block (never
   * acted on, e.g. the block repeated until max_tokens) was left out of later prompts (`log-cut-after-query-block`).
   */
  logCutAfterBlock?: boolean;
  /** Queries skipped because an earlier turn executed them (H5). */
  queriesRepeated: HdsRepeatedQuery[];
  /** Distinct queries beyond `maxParallelQueries`. */
  queriesCutByCap: string[];
  /** Queries dropped because the search-call budget ran out. */
  queriesCutByBudget: string[];
}

/** Why the loop stopped (reference values, plus `cancelled` and `failed`). */
export type HdsTerminatedBy =
  | 'answer'
  | 'max_turns'
  | 'max_search_calls'
  | 'answer_fallback'
  | 'max_turns_fallback'
  | 'max_search_calls_fallback'
  /** `repeatedBlock: 'answer'`: a block repeated earlier queries only; the final prompt answers (`…_fallback`). */
  | 'repeated_block'
  | 'repeated_block_fallback'
  | 'cancelled'
  | 'failed';

/** Identifies the variant of the algorithm that produced a run (docs/decisions.md). */
export const HDS_PROTOCOL = Object.freeze({
  id: 'dsw-hds-2',
  /** Decisions applied on top of the reference behaviour (docs/decisions.md). */
  decisions: Object.freeze(['H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'H7', 'H8', 'H9', 'H10', 'H11', 'H12']) as readonly string[],
  /** Additions not covered by a decision. */
  extensions: Object.freeze(['unterminated-query-block', 'placeholder-boxed-answer', 'placeholder-yields-to-queries', 'echoed-instruction-block', 'unterminated-boxed-answer', 'heading-list-query-block', 'log-cut-after-query-block', 'repeats-outside-parallel-cap', 'final-answer-without-query-block', 'think-closes-at-query-block', 'reasoning-line', 'repeated-block', 'final-context', 'question-search', 'plan-guard']) as readonly string[],
});

/** A complete (or cancelled, or failed) HDS run. */
export interface HdsRun {
  /** Discriminates HDS runs from baseline runs. */
  kind: 'hds';
  /** Algorithm variant, for traceability. */
  protocol: { id: string; decisions: readonly string[]; extensions: readonly string[] };
  /** The question as sent to the model. */
  question: string;
  /** The exact configuration used. */
  config: HdsConfig;
  /** The model used (never the key). */
  llm: LlmDescription;
  /** Outcome of the run. */
  status: 'completed' | 'cancelled' | 'failed';
  /** Why the loop stopped. */
  terminatedBy: HdsTerminatedBy;
  /** The final answer ('' when none), as the model gave it (H8). */
  answer: string;
  /** The answer scores are computed on (H12): the marked answer, or a short span extracted from an unmarked one. */
  scoredAnswer?: ScoredAnswer;
  /** Per turn: the model response, then (search turns) the results block. */
  interactionLog: string[];
  /** Distinct document ids in first-seen order, per-turn merged by score (the reference, docs/decisions.md#hds-reference). */
  retrievedIds: string[];
  /** Failed retrievals of all turns (non-empty only with partial failures allowed, or in a failed run). */
  retrievalFailures: HdsRetrievalFailure[];
  /** Retrieval calls made (failed ones included, repeats not). */
  searchCallsUsed: number;
  /** Sum over all LLM calls that reported usage. */
  tokenUsage: TokenUsage;
  /** The search for the question itself before turn 1, when `questionSearchK` > 0. */
  questionSearch?: HdsSearchStep;
  /** One record per plan turn (H6). */
  turns: HdsTurnRecord[];
  /** The final-prompt call, when the fallback ran. */
  fallback?: HdsFinalCallRecord;
  /** Wall-clock start, ISO 8601. */
  startedAt: string;
  /** Total run time. */
  durationMs: number;
  /** Plain-words reason, when failed. */
  error?: string;
}

/** Live progress of a run, for a timeline that renders turns as they happen. */
export type HdsEvent =
  | { type: 'run-start'; question: string; config: HdsConfig; startedAt: string }
  /** A plan turn (`phase` plan) or the fallback call (`phase` final, numbered after the last plan turn) begins. */
  | { type: 'turn-start'; turn: number; phase: 'plan' | 'final'; prompt: string; atMs: number }
  /** A streamed piece of the response of `turn` (either field may be empty). */
  | { type: 'llm-delta'; turn: number; phase: 'plan' | 'final'; content: string; reasoning: string }
  | { type: 'llm-end'; turn: number; phase: 'plan' | 'final'; call: LlmCallRecord }
  | { type: 'action'; turn: number; action: HdsAction; marker: HdsActionMarker; tokenSpelling?: HdsTokenSpelling }
  | {
      type: 'queries';
      turn: number;
      executed: string[];
      repeated: HdsRepeatedQuery[];
      cutByCap: string[];
      cutByBudget: string[];
      k: number;
    }
  | { type: 'retrieval-start'; turn: number; index: number; query: string; atMs: number }
  | { type: 'retrieval-end'; turn: number; index: number; record: HdsRetrievalRecord }
  | { type: 'turn-end'; turn: number; record: HdsTurnRecord }
  /** The question's own search (`questionSearchK` > 0) begins; its retrievals follow as turn 0. */
  | { type: 'question-search-start'; query: string; k: number; atMs: number }
  | { type: 'question-search-end'; record: HdsSearchStep }
  /** Emitted once, whatever the outcome (completed, cancelled or failed). */
  | { type: 'done'; run: HdsRun };

/** Options of `runHds`. */
export interface HdsRunOptions {
  /** Aborting stops the LLM stream and pending retrievals at once; the partial run is returned as cancelled (H7). */
  signal?: AbortSignal;
  /** Receives live events. Exceptions thrown by it are ignored. */
  onEvent?: (event: HdsEvent) => void;
}
