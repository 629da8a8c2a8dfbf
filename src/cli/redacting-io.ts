import { redactText } from '../core/index.ts';
import type { CliIo } from './io.ts';

/**
 * The CLI's output boundary: a CliIo whose stdout and stderr never show a registered secret (commands register the
 * API key they read with `addSecret`; main prints its errors through the same io).
 */
export function redactingIo(io: CliIo): CliIo & { addSecret(secret: string): void } {
  const secrets: string[] = [];
  return {
    cwd: io.cwd,
    env: io.env,
    out: (text) => io.out(redactText(text, secrets)),
    err: (text) => io.err(redactText(text, secrets)),
    addSecret: (secret) => void secrets.push(secret),
  };
}
