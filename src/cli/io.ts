/** Where a CLI command writes. Tests pass a capturing implementation. */
export interface CliIo {
  /** Standard output; `text` is written as is (add your own newline). */
  out(text: string): void;
  /** Standard error. */
  err(text: string): void;
  /** Directory that relative paths are resolved against. */
  cwd: string;
  /** Environment variables (for `--api-key-env`). */
  env: Record<string, string | undefined>;
  /** Registers a secret (an API key) that nothing printed from now on may show (see redacting-io.ts). */
  addSecret?(secret: string): void;
}

/** A user mistake (bad argument, unreadable file): printed as one line, exit code 2. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** A command: parses its own arguments, returns the process exit code. */
export type CliCommand = (argv: string[], io: CliIo) => Promise<number>;
