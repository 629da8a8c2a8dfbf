import { exactMatch, isValidAnswerList, tokenF1, evidenceScores } from '../eval/index.ts';
import type { TokenUsage } from '../llm/index.ts';
import type { AgentRun } from './agent-run.ts';
import { scoredAnswer, type ScoredAnswer } from './answer-rule.ts';
import { hdsAnswerIsMarked } from './run-hds.ts';

/** What is known about the right answer to a question. */
export interface QuestionGold {
  /** Accepted answers (first = canonical); none for a free question. */
  answers?: readonly string[];
  /** Qrels of the question: document id → relevance (> 0 = a gold supporting passage). */
  relevance?: Readonly<Record<string, number>>;
}

/** The scores and costs of one run of one question. */
export interface QuestionMetrics {
  /** SQuAD exact match (0/1) of the scored answer (H12: marked, else extracted) against the gold answers; null without gold answers. */
  em: number | null;
  /** SQuAD token F1 of the scored answer (H12) against the gold answers; null without gold answers. */
  f1: number | null;
  /** Exact match counting marked answers only (an unmarked reply scores 0, H12 "strict"); null without gold answers. */
  strictEm?: number | null;
  /** Token F1 counting marked answers only (H12 "strict"); null without gold answers. */
  strictF1?: number | null;
  /** Where the scored answer came from: the model's marker, an extraction, or nothing. */
  answerSource?: ScoredAnswer['source'];
  /** The text scored (H12), when it is not the run's answer as given. */
  scoredAnswer?: string;
  /** Share of the gold supporting documents among the run's retrieved documents; null without judged documents. */
  evidenceRecall: number | null;
  /** LLM calls: plan turns (plus the fallback call) for HDS, every call for a baseline. */
  turns: number;
  /** Retrieval calls made. */
  searchCalls: number;
  /** Wall time of the run. */
  latencyMs: number;
  /** Token usage summed over the calls that reported it. */
  tokens: TokenUsage;
}

/** The gold supporting documents of a question: ids judged relevance > 0, sorted. */
export function goldDocumentIds(relevance: Readonly<Record<string, number>> | undefined): string[] {
  return Object.entries(relevance ?? {})
    .filter(([, rel]) => rel > 0)
    .map(([id]) => id)
    .sort();
}

/** Scores a run against what is known about its question. */
export function scoreAgentRun(run: AgentRun, gold: QuestionGold = {}): QuestionMetrics {
  const answers = gold.answers && isValidAnswerList(gold.answers) ? gold.answers : null;
  const supporting = goldDocumentIds(gold.relevance);
  // Each supporting document is one fact to find (the reference, docs/decisions.md#metrics groups of one).
  const evidence = supporting.length > 0 ? evidenceScores(supporting.map((id) => [id]), run.retrievedIds) : null;
  const hds = run.kind === 'hds';
  const scored = scoredAnswerOf(run);
  const strict = scored.source === 'marked' ? scored.text : '';
  return {
    em: answers ? exactMatch(scored.text, answers) : null,
    f1: answers ? tokenF1(scored.text, answers) : null,
    strictEm: answers ? exactMatch(strict, answers) : null,
    strictF1: answers ? tokenF1(strict, answers) : null,
    answerSource: scored.source,
    ...(scored.text !== run.answer ? { scoredAnswer: scored.text } : {}),
    evidenceRecall: evidence ? evidence.recall : null,
    turns: hds ? run.turns.length + (run.fallback ? 1 : 0) : run.llmCalls.length,
    searchCalls: hds ? run.searchCallsUsed : run.retrievals.length,
    latencyMs: run.durationMs,
    tokens: { ...run.tokenUsage },
  };
}

/**
 * The answer a run is scored on (H12), the same rule for every method: the marked answer (`\boxed{}` / `<answer>`),
 * else a short span extracted from the unmarked reply. Computed from the run, so runs saved before H12 score alike.
 */
export function scoredAnswerOf(run: AgentRun): ScoredAnswer {
  const marked = run.kind === 'hds' ? hdsAnswerIsMarked(run) : run.finalAnswer !== undefined && run.finalAnswer.marker !== 'none';
  return scoredAnswer(run.answer, marked, run.question);
}
