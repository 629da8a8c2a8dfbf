import { abortError, isAbortError } from '../../abort/index.ts';
import { type LlmDescription, type LlmResponse, type TokenUsage, sumUsage } from '../../llm/index.ts';
import { raceAbort } from '../concurrency.ts';
import { finalCallPlan, type FinalAnswerMode } from '../final-answer.ts';
import { newLlmCallRecord, recordedLlmCall } from '../llm-call.ts';
import { extractFinalAnswer, type FinalAnswer } from '../parse-action.ts';
import { sanitizedRetrievalError } from '../sanitize.ts';
import type { AgentDeps, HdsFinalCallRecord, HdsRetrievalRecord, RetrievedPassage } from '../types.ts';

/** The baseline methods (the reference's IRCoT and decomposition, single-shot RAG, and the oracle-context bound). */
export type BaselineKind = 'single-shot' | 'ircot' | 'decomposition' | 'oracle-context';

/** A baseline run, shaped to be compared with an `HdsRun`. */
export interface BaselineRun<Config = unknown, Details = unknown> {
  /** Which baseline produced the run. */
  kind: BaselineKind;
  /** The question as asked. */
  question: string;
  /** The exact configuration used. */
  config: Config;
  /** The model used (never the key). */
  llm: LlmDescription;
  /** Outcome of the run. */
  status: 'completed' | 'cancelled' | 'failed';
  /** The final answer ('' when none): the answering call's reply read by the H8 rule (`extractFinalAnswer`). */
  answer: string;
  /** The answering call's reply as received, and which marker gave the answer (`none`: the trimmed text). */
  finalAnswer?: { raw: string; marker: FinalAnswer['marker'] };
  /** The documents the answer was based on, as the reference evaluates them (see each method). */
  retrievedIds: string[];
  /** Every LLM call, in order (the answering call records how the answer was asked for, H10). */
  llmCalls: HdsFinalCallRecord[];
  /** Every retrieval, in order (`index` is the position in this list). */
  retrievals: HdsRetrievalRecord[];
  /** Sum over all LLM calls that reported usage. */
  tokenUsage: TokenUsage;
  /** Wall-clock start, ISO 8601. */
  startedAt: string;
  /** Total run time. */
  durationMs: number;
  /** Plain-words reason, when failed. */
  error?: string;
  /** Method-specific trace. */
  details: Details;
}

/** A baseline that could not finish; carries the partial run. */
export class BaselineRunError extends Error {
  /** The run up to the failure, `status` `failed`. */
  readonly run: BaselineRun;

  constructor(message: string, run: BaselineRun, cause?: unknown) {
    super(message, { cause });
    this.name = 'BaselineRunError';
    this.run = run;
  }
}

/** Options shared by the baselines. */
export interface BaselineOptions {
  /** Aborting stops the current call at once; the partial run is returned as cancelled. */
  signal?: AbortSignal;
}

/** The recording helpers a baseline method is written with. */
export interface BaselineContext {
  /** One LLM call with `prompt` as the user message; recorded. */
  ask(prompt: string): Promise<LlmResponse>;
  /**
   * The answering call: `prompt` asked as the method's `finalAnswer` setting says (H10, H12: the same concise-answer
   * demand as every other method's). With a pre-fill the content returned starts with it, so it reads as one reply.
   */
  answer(prompt: string): Promise<LlmResponse>;
  /** One retrieval; recorded; texts of results returned without one are backfilled. Failures reject. */
  search(query: string, k: number): Promise<RetrievedPassage[]>;
  /** Fills empty texts of `passages` with one `getTexts` call (when the caller gave one). */
  backfill(passages: RetrievedPassage[]): Promise<RetrievedPassage[]>;
}

/** Runs `body` with recording helpers and turns its outcome into a `BaselineRun`. */
export async function runBaseline<Config, Details>(
  kind: BaselineKind,
  question: string,
  config: Config,
  details: Details,
  deps: AgentDeps,
  options: BaselineOptions,
  body: (ctx: BaselineContext) => Promise<{ reply: string; retrievedIds: string[] }>,
): Promise<BaselineRun<Config, Details>> {
  const { signal } = options;
  const now = deps.now ?? (() => performance.now());
  const t0 = now();
  const at = () => now() - t0;
  const run: BaselineRun<Config, Details> = {
    kind,
    question,
    config,
    llm: deps.llm.describe(),
    status: 'completed',
    answer: '',
    retrievedIds: [],
    llmCalls: [],
    retrievals: [],
    tokenUsage: sumUsage([]),
    startedAt: new Date().toISOString(),
    durationMs: 0,
    details,
  };
  const backfill = async (passages: RetrievedPassage[]) => {
    const missing = passages.filter((p) => !p.text);
    if (!deps.getTexts || missing.length === 0) return passages;
    const texts = await raceAbort(
      deps.getTexts(
        missing.map((p) => p.id),
        signal,
      ),
      signal,
    );
    const filled = new Map(missing.map((p, i) => [p, texts[i] ? String(texts[i]) : '']));
    return passages.map((p) => (filled.has(p) ? { ...p, text: filled.get(p) ?? '' } : p));
  };
  const ctx: BaselineContext = {
    async ask(prompt) {
      if (signal?.aborted) throw abortError();
      const record = newLlmCallRecord(prompt, at());
      run.llmCalls.push(record);
      // No system message (AgentDeps.systemPrompt is an HDS setting): the baselines send their reference prompts alone.
      return recordedLlmCall(deps.llm, record, { at, signal });
    },
    async answer(prompt) {
      if (signal?.aborted) throw abortError();
      const mode: FinalAnswerMode = (config as { finalAnswer?: FinalAnswerMode }).finalAnswer ?? 'reference';
      const plan = finalCallPlan(prompt, mode, deps.llm.canContinueAssistant === true);
      const record: HdsFinalCallRecord = newLlmCallRecord(prompt, at());
      record.finalAnswer = { requested: mode, applied: plan.applied };
      if (plan.prefix !== undefined) record.prefix = plan.prefix;
      run.llmCalls.push(record);
      const response = await recordedLlmCall(deps.llm, record, { at, signal, messages: plan.messages });
      return plan.prefix === undefined ? response : { ...response, content: `${plan.prefix}${response.content}` };
    },
    async search(query, k) {
      if (signal?.aborted) throw abortError();
      const record: HdsRetrievalRecord = {
        query,
        index: run.retrievals.length,
        k,
        status: 'ok',
        results: [],
        startMs: at(),
        endMs: at(),
      };
      run.retrievals.push(record);
      try {
        const passages = await backfill(await raceAbort(deps.retriever.search(query, k, signal), signal));
        record.results = passages.map((p) => {
          const relevance = deps.relevance?.(p.id);
          return {
            id: p.id,
            score: p.score,
            text: p.text ?? '',
            ...(p.title !== undefined ? { title: p.title } : {}),
            shown: true,
            ...(relevance !== undefined ? { relevance } : {}),
          };
        });
        return passages;
      } catch (err) {
        if (signal?.aborted) {
          record.status = 'cancelled';
          throw err;
        }
        record.status = 'failed';
        record.error = sanitizedRetrievalError(err);
        throw new Error(`${kind} retrieval failed for "${query}": ${record.error}`);
      } finally {
        record.endMs = at();
      }
    },
    backfill,
  };
  try {
    const outcome = await body(ctx);
    // H8 for the baselines too: `\boxed{}` / `<answer>` outside reasoning, else the visible text trimmed.
    const final = extractFinalAnswer(outcome.reply);
    run.answer = final.action.text;
    run.finalAnswer = { raw: outcome.reply, marker: final.marker };
    run.retrievedIds = outcome.retrievedIds;
  } catch (err) {
    run.tokenUsage = sumUsage(run.llmCalls.map((c) => c.usage));
    run.durationMs = at();
    if (isAbortError(err) && signal?.aborted) {
      run.status = 'cancelled';
      return run;
    }
    run.status = 'failed';
    run.error = err instanceof Error ? err.message : String(err);
    throw new BaselineRunError(run.error, run as BaselineRun, err);
  }
  run.tokenUsage = sumUsage(run.llmCalls.map((c) => c.usage));
  run.durationMs = at();
  return run;
}

/** Numbered paragraphs `[i] text` separated by blank lines, or a placeholder. */
export function formatParagraphs(texts: readonly string[]): string {
  if (texts.length === 0) return '(no paragraphs retrieved)';
  return texts.map((t, i) => `[${i + 1}] ${t}`).join('\n\n');
}

/** The question-answering prompt shared by the baselines (reference: IRCoT's QA prompt). */
export function qaPrompt(question: string, texts: readonly string[]): string {
  return [
    'Answer the question using the paragraphs below. Reply with a concise answer only.',
    '',
    'Paragraphs:',
    formatParagraphs(texts),
    '',
    `Question: ${question}`,
    '',
    'Answer:',
  ].join('\n');
}

/** `overrides` without its undefined entries. */
export function definedOnly<T extends object>(overrides: T): Partial<T> {
  return Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as Partial<T>;
}
