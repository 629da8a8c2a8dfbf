import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { buildQrelsMap, DEFAULT_MEASURES, evaluateRun, parseMeasures, parseQrels, parseTrecRun, type LineIssue, type Measure, type QrelsMap, type RunMap, type TextEncodingChoice } from '../../core/index.ts';
import { encodingHelp, encodingOption, ENCODING_OPTIONS } from '../encoding-option.ts';
import { CliError, type CliCommand, type CliIo } from '../io.ts';
import { formatTable } from '../table.ts';

export const evalHelp = `Usage: dsw eval --qrels <file> --run <file> [--measures <list>] [--per-query]
                [--keep-identical-ids] [--encoding utf-8|latin1] [--json]

Evaluates a TREC run against relevance judgements, with trec_eval definitions.

Options:
  --qrels <file>        judgements: BEIR "query-id corpus-id score" (header optional) or TREC "qid 0 docid rel"
  --run <file>          TREC run "qid Q0 docid rank score tag"
  --measures <list>     comma-separated ir_measures names (default ${DEFAULT_MEASURES.join(',')});
                        supported: nDCG[@k], R@k, P@k, RR[@k], AP[@k], Rprec, Judged@k; trec_eval and ranx
                        names are read as the same measures (ndcg_cut_10, ndcg_cut.10, recall_100, P_5, map,
                        map_cut_10, recip_rank, mrr@10, r-precision)
  --per-query           also print every query's values
  --keep-identical-ids  keep results whose doc id equals the query id (dropped by default, BEIR's rule;
                        keep them for collections whose query and doc ids are unrelated numbers)
${encodingHelp(20)}
  --json                print {"aggregate": {measure: mean}, "perQuery": {qid: {measure: value}}};
                        the "perQuery" key is present only with --per-query
  -h, --help            show this help

Means are over the queries of the qrels that have a judgement > 0; such a query missing from the run
scores 0. Documents are ranked by score (ties: doc id descending); the rank column is ignored; a
document repeated within a query keeps its first line. Any whitespace separates fields. Malformed lines
are skipped with a warning on stderr.
`;

const MAX_ISSUES_SHOWN = 10;

/** Reads a file named on the command line as bytes; an unreadable file is a CliError naming the flag. */
export function readInputFile(io: CliIo, path: string, flag: string): Uint8Array {
  try {
    return readFileSync(resolve(io.cwd, path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${flag} file '${path}': ${code ?? (error as Error).message}`);
  }
}

/** Prints skipped-line warnings to stderr, at most MAX_ISSUES_SHOWN of them. */
export function reportIssues(io: CliIo, path: string, issues: readonly LineIssue[]): void {
  for (const issue of issues.slice(0, MAX_ISSUES_SHOWN)) io.err(`warning: ${path} line ${issue.line}: ${issue.reason}\n`);
  if (issues.length > MAX_ISSUES_SHOWN) {
    io.err(`warning: ${path}: ${issues.length - MAX_ISSUES_SHOWN} more problem lines not shown\n`);
  }
}

/** Decodes a file read from the command line; a binary file is a CliError naming the flag. */
function decodeInput<T>(io: CliIo, path: string, flag: string, parse: (bytes: Uint8Array) => T): T {
  const bytes = readInputFile(io, path, flag);
  try {
    return parse(bytes);
  } catch (error) {
    if ((error as Error).name === 'BinaryFileError') throw new CliError(`${flag} file '${path}': ${(error as Error).message}`);
    throw error;
  }
}

/** Reads qrels; a file without any valid judgement is a CliError. */
export function loadQrels(io: CliIo, path: string, encoding?: TextEncodingChoice): QrelsMap {
  const { qrels, issues } = decodeInput(io, path, '--qrels', (bytes) => parseQrels(bytes, encoding));
  reportIssues(io, path, issues);
  if (qrels.length === 0) {
    const first = issues[0];
    throw new CliError(`no relevance judgement found in --qrels file '${path}'${first ? ` (line ${first.line}: ${first.reason})` : ''}`);
  }
  return buildQrelsMap(qrels);
}

/** Reads a TREC run; an empty run is allowed (with a warning). */
export function loadRun(io: CliIo, path: string, flag: string, encoding?: TextEncodingChoice): RunMap {
  const { run, issues } = decodeInput(io, path, flag, (bytes) => parseTrecRun(bytes, encoding));
  reportIssues(io, path, issues);
  if (run.size === 0) io.err(`warning: ${path}: the run has no results\n`);
  return run;
}

/** Parses the values of (possibly repeated) `--measures` options; none given means the defaults. */
export function parseMeasureOption(values: readonly string[] | undefined): Measure[] {
  const names = (values ?? []).flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  try {
    return parseMeasures(names.length > 0 ? names : DEFAULT_MEASURES);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

/** Runs `parseArgs`, turning its errors into one-line CliErrors. */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs({ ...config, args: config.args && joinNegativeValues(config.args, config.options ?? {}) } as T);
  } catch (error) {
    throw new CliError((error as Error).message.split('\n')[0]);
  }
}

/**
 * `--port -1` as `--port=-1`: parseArgs reads a value starting with '-' as another option ("argument is
 * ambiguous"), so a negative number never reached the option's range check and its message.
 */
function joinNegativeValues(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-(\d|\.\d|Infinity)/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

export const formatValue = (value: number): string => value.toFixed(4);

export const evalCommand: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      qrels: { type: 'string' },
      run: { type: 'string' },
      measures: { type: 'string', multiple: true },
      'per-query': { type: 'boolean' },
      'keep-identical-ids': { type: 'boolean' },
      json: { type: 'boolean' },
      ...ENCODING_OPTIONS,
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
    strict: true,
  });
  if (values.help) {
    io.out(evalHelp);
    return 0;
  }
  if (!values.qrels) throw new CliError('missing --qrels <file> (see dsw eval --help)');
  if (!values.run) throw new CliError('missing --run <file> (see dsw eval --help)');
  const measures = parseMeasureOption(values.measures);
  const encoding = encodingOption(values.encoding);
  const qrels = loadQrels(io, values.qrels, encoding);
  const run = loadRun(io, values.run, '--run', encoding);

  const result = evaluateRun(qrels, run, measures, { ignoreIdenticalIds: !values['keep-identical-ids'] });
  const queryIds = Object.keys(result.perQuery);
  if (queryIds.length === 0) io.err('warning: no query of the qrels has a judgement > 0; every mean is 0\n');
  else if (run.size > 0 && !queryIds.some((q) => run.has(q))) {
    io.err('warning: none of the evaluated queries appears in the run (do the query ids match?)\n');
  }

  if (values.json) {
    const output = values['per-query']
      ? { aggregate: result.aggregate, perQuery: result.perQuery }
      : { aggregate: result.aggregate };
    io.out(`${JSON.stringify(output, null, 2)}\n`);
    return 0;
  }
  const names = measures.map((m) => m.name);
  const rows: string[][] = [];
  if (values['per-query']) {
    for (const q of queryIds) rows.push([q, ...names.map((n) => formatValue(result.perQuery[q][n]))]);
  }
  rows.push(['all', ...names.map((n) => formatValue(result.aggregate[n]))]);
  io.out(formatTable(['query', ...names], rows));
  io.out(`(means over ${queryIds.length} ${queryIds.length === 1 ? 'query' : 'queries'} with a relevant judgement)\n`);
  return 0;
};
