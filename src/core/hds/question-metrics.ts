import { exactMatch, isValidAnswerList, tokenF1 } from '../eval/answers.ts';
import { evidenceScores } from '../eval/evidence.ts';
import type { TokenUsage } from '../llm/types.ts';
import type { AgentRun } from './agent-run.ts';

/** What is known about the right answer to a question. */
export interface QuestionGold {
  /** Accepted answers (first = canonical); none for a free question. */
  answers?: readonly string[];
  /** Qrels of the question: document id → relevance (> 0 = a gold supporting passage). */
  relevance?: Readonly<Record<string, number>>;
}

/** The scores and costs of one run of one question. */
export interface QuestionMetrics {
  /** SQuAD exact match (0/1) against the gold answers; null without gold answers. */
  em: number | null;
  /** SQuAD token F1 against the gold answers; null without gold answers. */
  f1: number | null;
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
  // Each supporting document is one fact to find (reference §4.2 groups of one).
  const evidence = supporting.length > 0 ? evidenceScores(supporting.map((id) => [id]), run.retrievedIds) : null;
  const hds = run.kind === 'hds';
  return {
    em: answers ? exactMatch(run.answer, answers) : null,
    f1: answers ? tokenF1(run.answer, answers) : null,
    evidenceRecall: evidence ? evidence.recall : null,
    turns: hds ? run.turns.length + (run.fallback ? 1 : 0) : run.llmCalls.length,
    searchCalls: hds ? run.searchCallsUsed : run.retrievals.length,
    latencyMs: run.durationMs,
    tokens: { ...run.tokenUsage },
  };
}
