import { describe, expect, it } from 'vitest';
import { csvField, formatCsv } from './csv.ts';

describe('CSV (RFC 4180)', () => {
  it('quotes only fields that need it, doubling inner quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField('')).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField(-0.125)).toBe('-0.125');
    expect(csvField(0.1 + 0.2)).toBe('0.30000000000000004');
  });

  it('ends every record with CRLF', () => {
    expect(formatCsv([['id', 'text'], ['q1', 'a "b", c']])).toBe('id,text\r\nq1,"a ""b"", c"\r\n');
    expect(formatCsv([])).toBe('');
  });
});
