import type { CliIo } from '../cli/io.ts';

/** A CliIo that keeps what a command prints, for tests. */
export interface CapturedIo extends CliIo {
  stdout: string;
  stderr: string;
}

export function captureIo(cwd: string, env: Record<string, string | undefined> = {}): CapturedIo {
  const io: CapturedIo = {
    stdout: '',
    stderr: '',
    cwd,
    env,
    out: (text) => void (io.stdout += text),
    err: (text) => void (io.stderr += text),
  };
  return io;
}
