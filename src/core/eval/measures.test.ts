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

  it('reads trec_eval, ranx and ir_measures names as the same measures', () => {
    const as = (names: string[]) => names.map((n) => parseMeasure(n).name);
    expect(as(['ndcg_cut_10', 'ndcg_cut.10', 'ndcg@10', 'NDCG@10', 'nDCG_10'])).toEqual(Array(5).fill('nDCG@10'));
    expect(as(['recall_100', 'recall.100', 'recall@100'])).toEqual(Array(3).fill('R@100'));
    expect(as(['P_5', 'P.5', 'precision@5', 'p@5'])).toEqual(Array(4).fill('P@5'));
    expect(as(['map', 'MAP', 'ap'])).toEqual(['AP', 'AP', 'AP']);
    expect(as(['map_cut_10', 'map@10'])).toEqual(['AP@10', 'AP@10']);
    expect(as(['recip_rank', 'mrr', 'MRR@10'])).toEqual(['RR', 'RR', 'RR@10']);
    expect(as(['r-precision', 'R_precision', 'rprec'])).toEqual(['Rprec', 'Rprec', 'Rprec']);
    expect(as(['ndcg', 'judged_10'])).toEqual(['nDCG', 'Judged@10']);
  });

  it('rejects unknown names, saying what is supported', () => {
    expect(() => parseMeasure('BLEU')).toThrow(/unknown measure 'BLEU' \(supported: nDCG\[@k\].*ndcg_cut_10, recall_100, P_5, map, recip_rank\)/);
    expect(() => parseMeasure('bpref')).toThrow(/unknown measure 'bpref'/);
    expect(() => parseMeasure('success_10')).toThrow(/unknown measure/);
    expect(() => parseMeasure('ndcg_burges@10')).toThrow(/unknown measure/);
    expect(() => parseMeasure('')).toThrow(/unknown measure/);
  });

  it('checks the cutoffs of other names too', () => {
    expect(() => parseMeasure('ndcg_cut')).toThrow("measure 'ndcg_cut' needs a cutoff, e.g. 'ndcg_cut_10'");
    expect(() => parseMeasure('recall')).toThrow(/measure 'recall' needs a cutoff/);
    expect(() => parseMeasure('recall_0')).toThrow("measure 'recall_0': the cutoff must be a positive integer (read as R)");
    expect(() => parseMeasure('ndcg_cut_1.5')).toThrow(/positive integer/);
    expect(() => parseMeasure('rprec_5')).toThrow(/takes no cutoff/);
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
