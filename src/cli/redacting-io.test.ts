import { describe, expect, it } from 'vitest';
import { captureIo } from '../test-support/capture-io.ts';
import { redactingIo } from './redacting-io.ts';

describe('redactingIo', () => {
  it('redacts every registered secret from stdout and stderr, from the moment it is registered', () => {
    const raw = captureIo('/');
    const io = redactingIo(raw);
    io.out('before sk-abcdef\n');
    io.addSecret('sk-abcdef');
    io.out('after sk-abcdef\n');
    io.err('error: sk-abcdef failed\n');
    expect(raw.stdout).toBe('before sk-abcdef\nafter [redacted]\n');
    expect(raw.stderr).toBe('error: [redacted] failed\n');
  });
});
