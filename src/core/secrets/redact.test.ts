import { describe, expect, it } from 'vitest';
import { isSecretFieldName, redactText, redactValue, StreamRedactor } from './redact.ts';

const KEY = 'sk-live-0123456789abcdef';

describe('redactText and redactValue', () => {
  it('replaces every occurrence of every secret, and leaves short or empty secrets alone', () => {
    expect(redactText(`a ${KEY} b ${KEY}`, [KEY])).toBe('a [redacted] b [redacted]');
    expect(redactText('abc', ['', 'ab', undefined])).toBe('abc');
    // The longer secret first, so a secret that contains another is not half-replaced.
    expect(redactText('key sk-live-0123 and sk-live-0123456789abcdef', ['sk-live-0123', KEY])).toBe('key [redacted] and [redacted]');
  });

  it('drops credential-named fields at any depth and redacts secret values and keys', () => {
    const value = { apiKey: 'x', nested: [{ client_secret: 'y', note: `echo ${KEY}` }], [KEY]: 1, key: 'kept', token: 'kept' };
    expect(redactValue(value, [KEY])).toEqual({ nested: [{ note: 'echo [redacted]' }], '[redacted]': 1, key: 'kept', token: 'kept' });
    expect(['apiKey', 'api_key', 'Authorization', 'accessToken', 'password'].every(isSecretFieldName)).toBe(true);
    expect(['key', 'token', 'docId'].some(isSecretFieldName)).toBe(false);
  });
});

describe('StreamRedactor', () => {
  it('catches a secret split across pieces at every position, and passes everything else on unchanged', () => {
    const text = `The key is ${KEY}, again ${KEY}. sk-live-0 is not it.`;
    for (let size = 1; size <= text.length; size++) {
      const redactor = new StreamRedactor([KEY]);
      let out = '';
      for (let i = 0; i < text.length; i += size) {
        const piece = redactor.push(text.slice(i, i + size));
        expect(piece).not.toContain('sk-live-0123');
        out += piece;
      }
      out += redactor.end();
      expect(out).toBe('The key is [redacted], again [redacted]. sk-live-0 is not it.');
    }
  });

  it('holds back only a possible start of a secret', () => {
    const redactor = new StreamRedactor([KEY]);
    expect(redactor.push('hello sk-li')).toBe('hello ');
    expect(redactor.push('ght')).toBe('sk-light');
    expect(new StreamRedactor([]).push('sk-li')).toBe('sk-li');
  });
});
