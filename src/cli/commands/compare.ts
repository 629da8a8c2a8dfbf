import { compareRuns, DEFAULT_MEASURES, DEFAULT_PERMUTATIONS, DEFAULT_SEED, NUMERIC_RULES, type RunMap } from '../../core/index.ts';
import { encodingHelp, encodingOption, ENCODING_OPTIONS } from '../encoding-option.ts';
import { CliError, type CliCommand } from '../io.ts';
import { numberOption } from '../params.ts';
import { formatTable } from '../table.ts';
import {
  formatValue,
  loadQrels,
  loadRun,
  parseCommandArgs,
  parseMeasureOption,
} from './eval.ts';

export const compareHelp = `Usage: dsw compare --qrels <file> --baseline <run> --runs <run>... [--measures <list>]
                   [--seed N] [--permutations N] [--keep-identical-ids] [--json]

Compares runs with a baseline run, measure by measure, over the same queries.

Options:
  --qrels <file>        judgements (BEIR or TREC layout, as for dsw eval)
  --baseline <run>      the TREC run the others are compared with
  --runs <run>...       runs to compare; repeat --runs or list the files after it
  --measures <list>     comma-separated ir_measures names (default ${DEFAULT_MEASURES.join(',')})
  --seed N              seed of the randomisation test, 0..4294967295 (default ${DEFAULT_SEED})
  --permutations N      random sign flips per test (default ${DEFAULT_PERMUTATIONS})
  --keep-identical-ids  keep results whose doc id equals the query id (dropped by default, BEIR's rule)
${encodingHelp(20)}
  --json                print an array of {run, measure, mean, baselineMean, delta, wins, ties, losses, pValue}
  -h, --help            show this help

Queries: those of the qrels with a judgement > 0 (a run missing one scores 0 on it). A win/loss is a
per-query difference of at least 1e-12 either way; smaller differences are ties. p-value: two-sided paired
randomisation test, p = (extreme permutations + 1) / (permutations + 1); every test uses the same seed.
`;

export const compareCommand: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    options: {
      qrels: { type: 'string' },
      baseline: { type: 'string' },
      runs: { type: 'string', multiple: true },
      measures: { type: 'string', multiple: true },
      seed: { type: 'string' },
      permutations: { type: 'string' },
      'keep-identical-ids': { type: 'boolean' },
      ...ENCODING_OPTIONS,
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.out(compareHelp);
    return 0;
  }
  if (!values.qrels) throw new CliError('missing --qrels <file> (see dsw compare --help)');
  if (!values.baseline) throw new CliError('missing --baseline <run> (see dsw compare --help)');
  const runPaths = [...(values.runs ?? []), ...positionals];
  if (runPaths.length === 0) throw new CliError('missing --runs <run>... (see dsw compare --help)');
  const repeated = runPaths.find((p, i) => runPaths.indexOf(p) !== i);
  if (repeated !== undefined) throw new CliError(`run '${repeated}' is given twice`);
  const measures = parseMeasureOption(values.measures);
  const seed = numberOption('--seed', values.seed, NUMERIC_RULES.seed, DEFAULT_SEED);
  const permutations = numberOption('--permutations', values.permutations, NUMERIC_RULES.permutations, DEFAULT_PERMUTATIONS);

  const encoding = encodingOption(values.encoding);
  const qrels = loadQrels(io, values.qrels, encoding);
  const baseline = loadRun(io, values.baseline, '--baseline', encoding);
  const others = new Map<string, RunMap>();
  for (const path of runPaths) others.set(path, path === values.baseline ? baseline : loadRun(io, path, '--runs', encoding));

  const rows = compareRuns(baseline, others, qrels, measures, {
    seed,
    permutations,
    ignoreIdenticalIds: !values['keep-identical-ids'],
  });
  if (values.json) {
    const out = rows.map(({ run, measure, mean, baselineMean, delta, wins, ties, losses, pValue }) => ({
      run,
      measure,
      mean,
      baselineMean,
      delta,
      wins,
      ties,
      losses,
      pValue,
    }));
    io.out(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  const queryCount = rows.length > 0 ? rows[0].wins + rows[0].ties + rows[0].losses : 0;
  io.out(`baseline: ${values.baseline} (${queryCount} queries; ${permutations} permutations, seed ${seed})\n`);
  const table = rows.map((r) => [
    r.run,
    r.measure,
    formatValue(r.mean),
    formatValue(r.baselineMean),
    formatValue(r.delta),
    String(r.wins),
    String(r.ties),
    String(r.losses),
    formatValue(r.pValue),
  ]);
  io.out(formatTable(['run', 'measure', 'mean', 'baseline', 'delta', 'wins', 'ties', 'losses', 'p'], table));
  return 0;
};
