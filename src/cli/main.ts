import { CliError, type CliCommand, type CliIo } from './io.ts';
import { redactingIo } from './redacting-io.ts';
import { compareCommand, compareHelp } from './commands/compare.ts';
import { embedCommand, embedHelp } from './commands/embed.ts';
import { evalCommand, evalHelp } from './commands/eval.ts';
import { hdsCommand, hdsHelp } from './commands/hds.ts';
import { runCommand, runHelp } from './commands/run.ts';
import { searchCommand, searchHelp } from './commands/search.ts';
import { serveCommand, serveHelp } from './commands/serve.ts';
import { sweepCommand, sweepHelp } from './commands/sweep.ts';

interface CommandEntry {
  run: CliCommand;
  help: string;
  summary: string;
}

const COMMANDS: Record<string, CommandEntry> = {
  search: { run: searchCommand, help: searchHelp, summary: 'search a dataset and print the ranking' },
  run: { run: runCommand, help: runHelp, summary: 'run every query of a dataset and write a TREC run file' },
  eval: { run: evalCommand, help: evalHelp, summary: 'score a TREC run against qrels (trec_eval definitions)' },
  compare: { run: compareCommand, help: compareHelp, summary: 'compare runs with a baseline: deltas, wins/losses, p-values' },
  sweep: { run: sweepCommand, help: sweepHelp, summary: 'sweep GQR settings over a query set; one row per grid point, with baselines' },
  embed: { run: embedCommand, help: embedHelp, summary: 'embed a dataset with a model and write the vectors (.jsonl or .npy) for the app to import' },
  serve: { run: serveCommand, help: serveHelp, summary: 'serve a dataset over HTTP+JSON for the app (search, runs, GQR, documents)' },
  hds: { run: hdsCommand, help: hdsHelp, summary: 'run the Hybrid Deep Searcher (and baselines) with a chat model; EM/F1/evidence recall' },
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `Usage: dsw <command> [options]

Deep Search Workbench, headless: the same core as the browser app, for batch experiments.

Commands:
${lines.join('\n')}

Run "dsw <command> --help" for a command's options.
`;
}

/** Runs the CLI; returns the exit code (0 ok, 1 failure, 2 bad usage or unreadable input). */
export async function main(argv: string[], rawIo: CliIo): Promise<number> {
  const io = redactingIo(rawIo);
  const [name, ...rest] = argv;
  if (name === 'help' && rest[0] && COMMANDS[rest[0]]) {
    io.out(COMMANDS[rest[0]]!.help);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`dsw: unknown command "${name}". Run "dsw --help" for the list.\n`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof CliError || isArgParseError(error)) {
      io.err(`dsw ${name}: ${(error as Error).message}\n`);
      return 2;
    }
    io.err(`dsw ${name}: ${(error as Error)?.message ?? String(error)}\n`);
    return 1;
  }
}

function isArgParseError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
