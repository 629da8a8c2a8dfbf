import type { FinalAnswerMode } from '../final-answer.ts';
import { splitReasoning } from '../parse-action.ts';
import type { AgentDeps, RetrievedPassage } from '../types.ts';
import { definedOnly, qaPrompt, runBaseline, type BaselineOptions, type BaselineRun } from './baseline-run.ts';

/** Settings of question decomposition (the reference, docs/decisions.md#agents-and-baselines, generation pipeline). */
export interface DecompositionConfig {
  /** Maximum sub-questions kept. Default 3. */
  maxSubquestions: number;
  /** Passages per retrieval, and passages kept after merging. Default 5. */
  topK: number;
  /** How the answer is asked for (H10, H12); default `reference` (the prompt as it is). */
  finalAnswer?: FinalAnswerMode;
}

/** The reference defaults. */
export const DEFAULT_DECOMPOSITION_CONFIG: Readonly<DecompositionConfig> = Object.freeze({
  maxSubquestions: 3,
  topK: 5,
});

/** Decomposition trace. */
export interface DecompositionDetails {
  /** The decomposition response as received. */
  rawDecomposition: string;
  /** The sub-questions kept after parsing and de-duplication. */
  subQuestions: string[];
  /** The original question followed by the sub-questions. */
  retrievalQueries: string[];
  /** Scores of `retrievedIds`, aligned. */
  retrievedScores: number[];
}

/** A decomposition run; `retrievedIds` are the merged top-k passages given to the model. */
export type DecompositionRun = BaselineRun<DecompositionConfig, DecompositionDetails>;

/** The decomposition prompt. */
export function decompositionPrompt(question: string, maxSubquestions: number): string {
  return [
    `Break the question below into at most ${maxSubquestions} short, standalone sub-questions that together answer it.`,
    'Write one sub-question per line and nothing else. If the question needs no decomposition, repeat it once.',
    '',
    `Question: ${question}`,
    '',
    'Sub-questions:',
  ].join('\n');
}

const INLINE_MARKER = /\s+(?=(?:\d+[.)]|[-*•])\s)/;
const PREFIX = /^\s*(?:(?:sub-?question|question)\s*\d*\s*[:.)]|[-*•]|\d+[.)]|[a-z][.)])\s*/i;
const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Sub-questions from a decomposition response (the reference, docs/decisions.md#agents-and-baselines steps 2–3). */
export function parseSubQuestions(text: string, question: string, maxSubquestions: number): string[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  let candidates = trimmed
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (candidates.length === 1) {
    const line = candidates[0];
    let parts = line.split(INLINE_MARKER);
    if (parts.length === 1 && (line.match(/\?/g) ?? []).length > 1) parts = line.split(/(?<=\?)\s+/);
    candidates = parts;
  }
  const kept: string[] = [];
  const seen = new Set([normalise(question)]);
  for (const candidate of candidates) {
    const cleaned = candidate
      .replace(PREFIX, '')
      .trim()
      .replace(/[\s;]+$/, '');
    if (cleaned === '') continue;
    const key = normalise(cleaned);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(cleaned);
    if (kept.length >= maxSubquestions) break;
  }
  return kept;
}

/** Highest score per id (non-numeric as 0), sorted by score descending then id ascending. */
export function mergeByMaxScore(lists: ReadonlyArray<readonly RetrievedPassage[]>): RetrievedPassage[] {
  const best = new Map<string, RetrievedPassage>();
  for (const list of lists) {
    for (const p of list) {
      const score = typeof p.score === 'number' && !Number.isNaN(p.score) ? p.score : 0;
      const seen = best.get(p.id);
      if (!seen || score > seen.score) best.set(p.id, { ...p, score });
    }
  }
  return [...best.values()].sort((a, b) =>
    a.score > b.score ? -1 : a.score < b.score ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
}

/** Decomposes the question, retrieves for it and each sub-question, merges, and answers (the reference, docs/decisions.md#agents-and-baselines). */
export async function runDecomposition(
  question: string,
  config: Partial<DecompositionConfig>,
  deps: AgentDeps,
  options: BaselineOptions = {},
): Promise<DecompositionRun> {
  const cfg: DecompositionConfig = { ...DEFAULT_DECOMPOSITION_CONFIG, ...definedOnly(config) };
  if (!Number.isInteger(cfg.maxSubquestions) || cfg.maxSubquestions < 1) throw new Error('max_subquestions must be >= 1');
  if (!Number.isInteger(cfg.topK) || cfg.topK < 1) throw new Error('top_k must be >= 1');
  const details: DecompositionDetails = { rawDecomposition: '', subQuestions: [], retrievalQueries: [], retrievedScores: [] };
  return runBaseline('decomposition', question, cfg, details, deps, options, async (ctx) => {
    const response = await ctx.ask(decompositionPrompt(question, cfg.maxSubquestions));
    details.rawDecomposition = response.content;
    details.subQuestions = parseSubQuestions(splitReasoning(response.content).visibleText, question, cfg.maxSubquestions);
    details.retrievalQueries = [question, ...details.subQuestions];
    const lists: RetrievedPassage[][] = [];
    for (const query of details.retrievalQueries) lists.push(await ctx.search(query, cfg.topK));
    const merged = mergeByMaxScore(lists).slice(0, cfg.topK);
    details.retrievedScores = merged.map((p) => p.score);
    const answer = await ctx.answer(qaPrompt(question, merged.map((p) => p.text)));
    return { reply: answer.content, retrievedIds: merged.map((p) => p.id) };
  });
}
