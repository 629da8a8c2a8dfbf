import {
  Bm25Retriever,
  DEFAULT_ANALYZER_OPTIONS,
  OKAPI_BM25,
  type AnalyzerOptions,
  type Bm25Params,
  type Retriever,
} from '../core/index.ts';
import { CliError } from './io.ts';
import type { LoadedDataset } from './load-dataset.ts';

type ParamValue = string | number | boolean;

/** Analyzer settings among `--param`s (they decide how the index is built). */
export function analyzerFromParams(params: Record<string, ParamValue>): AnalyzerOptions {
  const analyzer: AnalyzerOptions = { ...DEFAULT_ANALYZER_OPTIONS };
  if ('lowercase' in params) analyzer.lowercase = expectBoolean('lowercase', params.lowercase);
  if ('stopWords' in params) analyzer.stopWords = expectOneOf('stopWords', params.stopWords, ['english', 'none']);
  if ('stemming' in params) analyzer.stemming = expectOneOf('stemming', params.stemming, ['porter', 'none']);
  return analyzer;
}

const ANALYZER_KEYS = ['lowercase', 'stopWords', 'stemming'];
const BM25_KEYS = ['k1', 'b', 'd', 'termCountBoost'];

/** Builds the retriever a `--pipeline` names, from the loaded dataset and the `--param`s. */
export function retrieverFromOptions(pipeline: string, params: Record<string, ParamValue>, dataset: LoadedDataset): Retriever {
  switch (pipeline) {
    case 'bm25': {
      rejectUnknown(params, [...ANALYZER_KEYS, ...BM25_KEYS], pipeline);
      const bm25: Partial<Bm25Params> = {};
      for (const key of ['k1', 'b', 'd'] as const) if (key in params) bm25[key] = expectNumber(key, params[key]);
      if ('termCountBoost' in params) bm25.termCountBoost = expectBoolean('termCountBoost', params.termCountBoost);
      try {
        return new Bm25Retriever(dataset.index, { ...OKAPI_BM25, ...bm25 });
      } catch (error) {
        throw new CliError((error as Error).message);
      }
    }
    default:
      throw new CliError(`Unknown pipeline "${pipeline}"; available: bm25`);
  }
}

function rejectUnknown(params: Record<string, ParamValue>, known: string[], pipeline: string): void {
  for (const key of Object.keys(params)) {
    if (!known.includes(key)) throw new CliError(`Unknown --param ${key} for pipeline ${pipeline}; known: ${known.join(', ')}`);
  }
}

function expectNumber(name: string, value: ParamValue | undefined): number {
  if (typeof value !== 'number') throw new CliError(`--param ${name} must be a number, got "${value}"`);
  return value;
}

function expectBoolean(name: string, value: ParamValue | undefined): boolean {
  if (typeof value !== 'boolean') throw new CliError(`--param ${name} must be true or false, got "${value}"`);
  return value;
}

function expectOneOf<T extends string>(name: string, value: ParamValue | undefined, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) throw new CliError(`--param ${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}
