import { describe, expect, it } from 'vitest';
import { DEFAULT_MEASURES, parseMeasure, parseMeasures } from './measures.ts';

describe('parseMeasure', () => {
  it('parses ir_measures names with and without cutoff', () => {
    expect(parseMeasure('nDCG@10')).toEqual({ name: 'nDCG@10', kind: 'nDCG', cutoff: 10 });
    expect(parseMeasure('nDCG')).toEqual({ name: 'nDCG', kind: 'nDCG' });
    expect(parseMeasure('R@100')).toEqual({ name: 'R@100', kind: 'R', cutoff: 100 });
    expect(parseMeasure('P@5')).toEqual({ name: 'P@5', kind: 'P', cutoff: 5 });
    expect(parseMeasure('RR@10')).toEqual({ name: 'RR@10', kind: 'RR', cutoff: 10 });
    expect(parseMeasure('RR')).toEqual({ name: 'RR', kind: 'RR' });
    expect(parseMeasure('AP')).toEqual({ name: 'AP', kind: 'AP' });
    expect(parseMeasure('AP@1000')).toEqual({ name: 'AP@1000', kind: 'AP', cutoff: 1000 });
    expect(parseMeasure('Rprec')).toEqual({ name: 'Rprec', kind: 'Rprec' });
    expect(parseMeasure('Judged@10')).toEqual({ name: 'Judged@10', kind: 'Judged', cutoff: 10 });
    expect(parseMeasure('  P@3 ')).toEqual({ name: 'P@3', kind: 'P', cutoff: 3 });
  });

  it('rejects unknown names with a hint', () => {
    expect(() => parseMeasure('MAP')).toThrow(/unknown measure 'MAP'.*did you mean 'AP'/);
    expect(() => parseMeasure('ndcg@10')).toThrow(/did you mean 'nDCG@10'/);
    expect(() => parseMeasure('MRR@10')).toThrow(/did you mean 'RR@10'/);
    expect(() => parseMeasure('BLEU')).toThrow(/unknown measure 'BLEU' \(supported: nDCG\[@k\]/);
    expect(() => parseMeasure('ndcg_cut.10')).toThrow(/unknown measure/);
    expect(() => parseMeasure('')).toThrow(/unknown measure/);
  });

  it('checks cutoffs', () => {
    expect(() => parseMeasure('P')).toThrow(/needs a cutoff, e.g. 'P@10'/);
    expect(() => parseMeasure('R')).toThrow(/needs a cutoff/);
    expect(() => parseMeasure('Judged')).toThrow(/needs a cutoff/);
    expect(() => parseMeasure('Rprec@5')).toThrow(/takes no cutoff/);
    expect(() => parseMeasure('nDCG@0')).toThrow(/positive integer/);
    expect(() => parseMeasure('nDCG@010')).toThrow(/positive integer/);
    expect(() => parseMeasure('nDCG@1.5')).toThrow(/positive integer/);
    expect(() => parseMeasure('nDCG@')).toThrow(/positive integer/);
    expect(() => parseMeasure('nDCG@99999999999999999999')).toThrow(/positive integer/);
  });
});

describe('parseMeasures', () => {
  it('keeps the first of repeated names', () => {
    expect(parseMeasures(['AP', 'P@5', ' AP']).map((m) => m.name)).toEqual(['AP', 'P@5']);
  });
  it('default measures are valid', () => {
    expect(parseMeasures(DEFAULT_MEASURES).map((m) => m.name)).toEqual(['nDCG@10', 'R@100', 'AP', 'RR@10', 'P@10']);
  });
});
