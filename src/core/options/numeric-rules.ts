// One set of ranges for every numeric setting a person types (CLI flags, the app's number fields). Limits are what
// is meaningful and finishes in reasonable time on one machine, so a typo such as 100000000000 is refused up front.

/** What a numeric setting accepts. */
export interface NumericRule {
  min: number;
  max: number;
  /** Only whole numbers. */
  integer: boolean;
  /** `min` itself is refused: only numbers above it (a temperature, a step size). */
  aboveMin?: boolean;
}

const whole = (min: number, max: number): NumericRule => ({ min, max, integer: true });
const real = (min: number, max: number): NumericRule => ({ min, max, integer: false });
const positive = (max: number): NumericRule => ({ min: 0, max, integer: false, aboveMin: true });

/** Every typed numeric setting, by name. */
export const NUMERIC_RULES = Object.freeze({
  /** Paired randomisation test: permutations per comparison. */
  permutations: whole(1, 1_000_000),
  /** PRNG seed (32-bit). */
  seed: whole(0, 2 ** 32 - 1),
  /** Results kept per query (runs, sweeps, search). */
  topK: whole(1, 100_000),
  /** A TCP port to listen on (`dsw serve`; 0 picks a free one). */
  port: whole(0, 65_535),
  /** Streams `dsw serve` answers at once. */
  serveStreams: whole(1, 256),
  /** HDS budgets. */
  maxTurns: whole(1, 100),
  maxParallelQueries: whole(1, 64),
  kPerQuery: whole(1, 1000),
  evidenceBudget: whole(1, 1000),
  maxSearchCalls: whole(1, 10_000),
  retrievalConcurrency: whole(1, 64),
  /** Results of HDS's search for the question itself before turn 1 (0: none). */
  questionSearchK: whole(0, 1000),
  /** LLM sampling. */
  temperature: real(0, 2),
  maxTokens: whole(1, 1_000_000),
  /** Nucleus sampling mass. */
  topP: real(0, 1),
  /** OpenAI's frequency and presence penalties. */
  penalty: real(-2, 2),
  /** llama.cpp's repetition penalty (1 = none). */
  repeatPenalty: real(0, 10),
  /** Characters of a streamed LLM reply before the call is ended. */
  maxResponseChars: whole(100, 100_000_000),
  /** Seconds a streamed LLM reply may bring no new text. */
  idleTimeoutSeconds: whole(1, 86_400),
  /** Questions of a batch. */
  questionLimit: whole(1, 1_000_000),
  /** Characters of a passage text shown to the agents. */
  passageChars: whole(20, 1_000_000),
  /** Baselines. */
  baselineK: whole(1, 1000),
  baselineSteps: whole(1, 100),
  /** Passage splitting of a corpus load, in words. */
  passageSize: whole(1, 100_000),
  passageOverlap: whole(0, 99_999),
  /** Fusion. */
  rrfK: real(0, 1_000_000),
  fetchKMultiplier: real(1, 100),
  /** Embedding batch size. */
  embeddingBatchSize: whole(1, 4096),
  /** Embeddings page: ask before embedding when it would take longer than this many seconds (0: always ask). */
  embedAskAboveSeconds: whole(0, 1_000_000),
  /** GQR: optimisation steps. */
  gqrSteps: whole(1, 10_000),
  /** GQR: documents each child fetches for the candidate pool when fixed. */
  gqrPoolSize: whole(1, 100_000),
  /** GQR: step size and softmax temperature (> 0, as the reference checks). */
  gqrLearningRate: positive(1_000),
  gqrTemperature: positive(1_000),
  /** Weights in [0, 1]: GQR's mixture α, a convex combination's weight. */
  weight: real(0, 1),
});

export type NumericSetting = keyof typeof NUMERIC_RULES;

/** `a whole number from 1 to 1000000`, `a number from 0 to 2`, `a number above 0, up to 1000`. */
export function describeRule(rule: NumericRule): string {
  const kind = rule.integer ? 'a whole number' : 'a number';
  return rule.aboveMin ? `${kind} above ${rule.min}, up to ${rule.max}` : `${kind} from ${rule.min} to ${rule.max}`;
}

/** Why `value` (typed text or a number) does not fit `rule`, as `must be …`; null when it fits. */
export function numberProblem(rule: NumericRule, value: string | number): string | null {
  const n = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
  const fits = Number.isFinite(n) && (!rule.integer || Number.isInteger(n)) && (rule.aboveMin ? n > rule.min : n >= rule.min) && n <= rule.max;
  return fits ? null : `must be ${describeRule(rule)}`;
}

/** A setting that does not fit its rule; the message names it and the value. */
export class NumericSettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NumericSettingError';
  }
}

/** `value` as a number, or a `NumericSettingError` such as `--permutations must be a whole number from 1 to 1000000, got "1e11"`. */
export function checkedNumber(name: string, rule: NumericRule, value: string | number): number {
  const problem = numberProblem(rule, value);
  if (problem) throw new NumericSettingError(`${name} ${problem}, got "${value}"`);
  return Number(value);
}
