// The door of eval: qrels, runs, measures, answer scores and significance tests.
export { exactMatch, isValidAnswerList, normalizeAnswer, tokenF1 } from './answers.ts';
export { type CompareOptions, compareRuns, type ComparisonRow, TIE_TOLERANCE } from './compare.ts';
export { buildQrelsMap, type EvaluateOptions, evaluateRun, resolveMeasures } from './evaluate.ts';
export { evidenceScores } from './evidence.ts';
export { DEFAULT_MEASURES, type Measure, parseMeasure, parseMeasures } from './measures.ts';
export { mulberry32 } from './prng.ts';
export { parseQrels } from './qrels-file.ts';
export { DEFAULT_PERMUTATIONS, DEFAULT_SEED, pairedRandomizationTest } from './randomization.ts';
export { rankForEvaluation } from './ranking.ts';
export { formatTrecRun, parseTrecRun } from './run-file.ts';
export { type LineIssue, type QrelsMap, type RunMap } from './types.ts';
export { FAMILY_ALPHA, holmAdjust, holmSignificant } from './holm.ts';
export { type RandomizationOptions } from './randomization.ts';
