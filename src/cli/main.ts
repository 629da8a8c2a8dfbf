import { CliError, type CliCommand, type CliIo } from './io.ts';
import { redactingIo } from './redacting-io.ts';

interface LoadedCommand {
  run: CliCommand;
  help: string;
}

interface CommandEntry {
  /** The command's module, imported only when that command runs (a start imports one command, not all). */
  load: () => Promise<LoadedCommand>;
  summary: string;
}

const COMMANDS: Record<string, CommandEntry> = {
  search: {
    load: async () => import('./commands/search.ts').then((m) => ({ run: m.searchCommand, help: m.searchHelp })),
    summary: 'search a dataset and print the ranking',
  },
  run: {
    load: async () => import('./commands/run.ts').then((m) => ({ run: m.runCommand, help: m.runHelp })),
    summary: 'run every query of a dataset and write a TREC run file',
  },
  eval: {
    load: async () => import('./commands/eval.ts').then((m) => ({ run: m.evalCommand, help: m.evalHelp })),
    summary: 'score a TREC run against qrels (trec_eval definitions)',
  },
  compare: {
    load: async () => import('./commands/compare.ts').then((m) => ({ run: m.compareCommand, help: m.compareHelp })),
    summary: 'compare runs with a baseline: deltas, wins/losses, p-values',
  },
  sweep: {
    load: async () => import('./commands/sweep.ts').then((m) => ({ run: m.sweepCommand, help: m.sweepHelp })),
    summary: 'sweep GQR settings over a query set; one row per grid point, with baselines',
  },
  embed: {
    load: async () => import('./commands/embed.ts').then((m) => ({ run: m.embedCommand, help: m.embedHelp })),
    summary: 'embed a dataset with a model and write the vectors (.jsonl or .npy) for the app to import',
  },
  serve: {
    load: async () => import('./commands/serve.ts').then((m) => ({ run: m.serveCommand, help: m.serveHelp })),
    summary: 'serve a dataset over HTTP+JSON for the app (search, runs, GQR, documents)',
  },
  index: {
    load: async () => import('./commands/index-opensearch.ts').then((m) => ({ run: m.indexCommand, help: m.indexHelp })),
    summary: 'stream a dataset into an OpenSearch index (then --opensearch <url> --index <name> in place of --dataset)',
  },
  hds: {
    load: async () => import('./commands/hds.ts').then((m) => ({ run: m.hdsCommand, help: m.hdsHelp })),
    summary: 'run the Hybrid Deep Searcher (and baselines) with a chat model; EM/F1/evidence recall',
  },
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
    io.out((await COMMANDS[rest[0]]!.load()).help);
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
    return await (await command.load()).run(rest, io);
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
