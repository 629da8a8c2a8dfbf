/**
 * Measure names, spelled as in ir_measures (`nDCG@10`, `R@100`, `AP`, `RR@10`, `P@10`, `Rprec`, `Judged@10`);
 * trec_eval (`ndcg_cut_10`, `ndcg_cut.10`, `recall_100`, `P_5`, `map`, `map_cut_10`, `recip_rank`, `Rprec`) and
 * ranx (`ndcg@10`, `recall@100`, `precision@5`, `map@100`, `mrr@10`, `r-precision`) names are read as the same
 * measures. Definitions (trec_eval semantics) are in `query-measures.ts`.
 */

/** The families of measures. */
export type MeasureKind = 'nDCG' | 'R' | 'P' | 'RR' | 'AP' | 'Rprec' | 'Judged';

/** A parsed measure name. */
export interface Measure {
  /** Canonical name (`nDCG@10`): the key under which values are reported. */
  name: string;
  /** The measure family. */
  kind: MeasureKind;
  /** Rank cutoff k (a positive integer); absent when the whole ranking counts. */
  cutoff?: number;
}

/** The measures the CLI and UI use when none are given. */
export const DEFAULT_MEASURES: readonly string[] = ['nDCG@10', 'R@100', 'AP', 'RR@10', 'P@10'];

type CutoffRule = 'required' | 'optional' | 'forbidden';

const CUTOFF_RULES: Record<MeasureKind, CutoffRule> = {
  nDCG: 'optional',
  R: 'required',
  P: 'required',
  RR: 'optional',
  AP: 'optional',
  Rprec: 'forbidden',
  Judged: 'required',
};

/**
 * Family names of trec_eval, ranx and ir_measures in lower case, with the measure each means. A cutoff follows
 * as `@k`, `_k` or `.k`. trec_eval's `*_cut` families exist only with a cutoff.
 */
const OTHER_NAMES: Record<string, MeasureKind> = {
  ndcg: 'nDCG',
  ndcg_cut: 'nDCG',
  r: 'R',
  recall: 'R',
  p: 'P',
  precision: 'P',
  rr: 'RR',
  mrr: 'RR',
  recip_rank: 'RR',
  ap: 'AP',
  map: 'AP',
  map_cut: 'AP',
  rprec: 'Rprec',
  'r-precision': 'Rprec',
  r_precision: 'Rprec',
  judged: 'Judged',
};

const SUPPORTED = 'nDCG[@k], R@k, P@k, RR[@k], AP[@k], Rprec, Judged@k, or their trec_eval/ranx names such as ndcg_cut_10, recall_100, P_5, map, recip_rank';

function isKind(name: string): name is MeasureKind {
  return Object.prototype.hasOwnProperty.call(CUTOFF_RULES, name);
}

/**
 * Parses a measure name such as `nDCG@10`. Names are case-sensitive, as in ir_measures; an unknown or
 * malformed name throws an Error that says what is supported (and suggests a spelling when it can).
 */
export function parseMeasure(text: string): Measure {
  const trimmed = text.trim();
  const match = /^([A-Za-z_]+)(?:@(.*))?$/.exec(trimmed);
  if (!match || !isKind(match[1]!)) return parseOtherName(text);
  const [, family, cutoffText] = match as unknown as [string, MeasureKind, string | undefined];
  const rule = CUTOFF_RULES[family];
  if (cutoffText === undefined) {
    if (rule === 'required') throw new Error(`measure '${text}' needs a cutoff, e.g. '${family}@10'`);
    return { name: family, kind: family };
  }
  if (rule === 'forbidden') throw new Error(`measure '${family}' takes no cutoff (got '${text}')`);
  if (!/^[1-9][0-9]*$/.test(cutoffText) || !Number.isSafeInteger(Number(cutoffText))) {
    throw new Error(`measure '${text}': the cutoff must be a positive integer`);
  }
  const cutoff = Number(cutoffText);
  return { name: `${family}@${cutoff}`, kind: family, cutoff };
}

/** A trec_eval or ranx name (`ndcg_cut_10`, `ndcg_cut.10`, `recall@100`, `P_5`, `map`, `recip_rank`) as its measure. */
function parseOtherName(text: string): Measure {
  const trimmed = text.trim();
  const match = /^([A-Za-z][A-Za-z_-]*?)(?:[@._](\d[\d.]*|))?$/.exec(trimmed);
  const family = match?.[1]?.toLowerCase();
  const kind = family === undefined ? undefined : OTHER_NAMES[family];
  if (!match || kind === undefined) throw new Error(`unknown measure '${text}' (supported: ${SUPPORTED})`);
  const cutoffText = match[2];
  if (family!.endsWith('_cut') && !cutoffText) throw new Error(`measure '${text}' needs a cutoff, e.g. '${family}_10'`);
  try {
    return parseMeasure(cutoffText === undefined ? kind : `${kind}@${cutoffText}`);
  } catch (error) {
    throw new Error(`${(error as Error).message.replace(/'[^']*'/, `'${trimmed}'`)} (read as ${kind})`);
  }
}

/** Parses several measure names; a name given twice is kept once (first position). */
export function parseMeasures(texts: readonly string[]): Measure[] {
  const seen = new Set<string>();
  const measures: Measure[] = [];
  for (const text of texts) {
    const measure = parseMeasure(text);
    if (seen.has(measure.name)) continue;
    seen.add(measure.name);
    measures.push(measure);
  }
  return measures;
}
