import { describe, expect, it } from 'vitest';
import { describeSettings, expandGrid, MAX_GRID_POINTS, parseGridAxis, SweepGridError, sweepKey, validateGrid } from './grid.ts';

describe('parseGridAxis', () => {
  it('parses numbers and modes, in the order typed', () => {
    expect(parseGridAxis('mixtureAlpha=0,0.25, 0.5,1')).toEqual({ key: 'mixtureAlpha', values: [0, 0.25, 0.5, 1] });
    expect(parseGridAxis('target=per-step,fixed')).toEqual({ key: 'target', values: ['per-step', 'fixed'] });
    expect(parseGridAxis('nSteps=10')).toEqual({ key: 'nSteps', values: [10] });
  });

  it("accepts the reference's snake_case names and short aliases", () => {
    expect(parseGridAxis('mixture_alpha=0.5').key).toBe('mixtureAlpha');
    expect(parseGridAxis('alpha=0.5').key).toBe('mixtureAlpha');
    expect(parseGridAxis('learning_rate=0.1').key).toBe('learningRate');
    expect(parseGridAxis('n_steps=5').key).toBe('nSteps');
    expect(parseGridAxis('candidate_pool_mode=primary').key).toBe('candidatePoolMode');
  });

  const bad: [string, string][] = [
    ['mixtureAlpha', 'A grid axis is written key=value1,value2,…; got "mixtureAlpha"'],
    ['=0.5', 'A grid axis is written key=value1,value2,…; got "=0.5"'],
    ['beta=1', 'Unknown grid key "beta"; sweepable keys: mixtureAlpha, temperature, learningRate, nSteps, candidatePoolMode, target, optimizer'],
    ['mixtureAlpha=', 'Grid key mixtureAlpha has no values'],
    ['mixtureAlpha=0,,1', 'Grid key mixtureAlpha has an empty value (check for a stray comma)'],
    ['temperature=hot', 'temperature=hot: temperature must be a number'],
    ['target=blend', 'target=blend: target must be one of per-step, fixed'],
    ['optimizer=sgd', 'optimizer=sgd: optimizer must be one of gd, adam'],
  ];
  it.each(bad)('rejects %s with a clear message', (text, message) => {
    expect(() => parseGridAxis(text)).toThrow(new SweepGridError(message));
  });

  it('explains why fetchKMultiplier and scorerMode cannot be swept', () => {
    expect(() => sweepKey('fetchKMultiplier')).toThrow(/changes the child retrievals, so it is fixed for a whole sweep/);
    expect(() => sweepKey('scorerMode')).toThrow(/fixed for a whole sweep/);
  });
});

describe('validateGrid', () => {
  it('reports invalid GQR values with the reference message', () => {
    expect(() => validateGrid([{ key: 'mixtureAlpha', values: [0, 1.5] }])).toThrow(
      'mixtureAlpha=1.5: mixture_alpha must be between 0 and 1',
    );
    expect(() => validateGrid([{ key: 'nSteps', values: [2.5] }])).toThrow('nSteps=2.5: n_steps must be an integer');
    expect(() => validateGrid([{ key: 'learningRate', values: [0] }])).toThrow('learningRate=0: learning_rate must be positive');
    expect(() => validateGrid([{ key: 'temperature', values: [-1] }])).toThrow('temperature=-1: temperature must be positive');
  });

  it('rejects an empty grid, a key given twice, repeated values and wrongly typed values', () => {
    expect(() => validateGrid([])).toThrow('The grid is empty; give at least one key, e.g. mixtureAlpha=0,0.5,1');
    expect(() =>
      validateGrid([
        { key: 'mixtureAlpha', values: [0] },
        { key: 'mixtureAlpha', values: [1] },
      ]),
    ).toThrow('Grid key mixtureAlpha is given twice; list all its values in one axis');
    expect(() => validateGrid([{ key: 'mixtureAlpha', values: [0.5, 0.5] }])).toThrow('Grid key mixtureAlpha repeats the value 0.5');
    expect(() => validateGrid([{ key: 'mixtureAlpha', values: [] }])).toThrow('Grid key mixtureAlpha has no values');
    expect(() => validateGrid([{ key: 'mixtureAlpha', values: ['0.5'] }])).toThrow('mixtureAlpha=0.5: mixtureAlpha must be a number');
    expect(() => validateGrid([{ key: 'target', values: [1] }])).toThrow('target=1: target must be one of per-step, fixed');
  });

  it('rejects an invalid base config and grids that are too large', () => {
    expect(() => validateGrid([{ key: 'mixtureAlpha', values: [0.5] }], { fetchKMultiplier: 0 })).toThrow(
      'The base GQR settings are invalid: fetch_k_multiplier must be positive',
    );
    const many = Array.from({ length: 30 }, (_, i) => i + 1);
    expect(() =>
      validateGrid([
        { key: 'nSteps', values: many },
        { key: 'temperature', values: many },
      ]),
    ).toThrow(`The grid has 900 points; at most ${MAX_GRID_POINTS} are allowed`);
  });
});

describe('expandGrid', () => {
  it('is the cartesian product, the first axis varying slowest, over the base config', () => {
    const points = expandGrid(
      [
        { key: 'mixtureAlpha', values: [0, 0.5, 1] },
        { key: 'target', values: ['per-step', 'fixed'] },
      ],
      { nSteps: 10, learningRate: 0.3 },
    );
    expect(points.map((p) => p.id)).toEqual([
      'mixtureAlpha=0,target=per-step',
      'mixtureAlpha=0,target=fixed',
      'mixtureAlpha=0.5,target=per-step',
      'mixtureAlpha=0.5,target=fixed',
      'mixtureAlpha=1,target=per-step',
      'mixtureAlpha=1,target=fixed',
    ]);
    expect(points.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(points[3].settings).toEqual({ mixtureAlpha: 0.5, target: 'fixed' });
    expect(points[3].config).toEqual({
      fetchKMultiplier: 2,
      nSteps: 10,
      learningRate: 0.3,
      temperature: 1,
      mixtureAlpha: 0.5,
      candidatePoolMode: 'union',
      scorerMode: 'auto',
      target: 'fixed',
      optimizer: 'gd',
    });
  });

  it('a grid value overrides the base value of the same key', () => {
    const [point] = expandGrid([{ key: 'nSteps', values: [3] }], { nSteps: 50 });
    expect(point.config.nSteps).toBe(3);
  });

  it('labels settings in display order', () => {
    expect(describeSettings({ target: 'fixed', mixtureAlpha: 0.25 })).toBe('α 0.25 · target fixed');
    expect(describeSettings({})).toBe('defaults');
  });
});
