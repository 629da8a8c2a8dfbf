import { describe, expect, it } from 'vitest';
import { DEFAULT_GQR_CONFIG, gqrFetchK, resolveGqrConfig, type GqrConfig } from './config.ts';

describe('resolveGqrConfig', () => {
  it('uses the reference defaults plus per-step / gd', () => {
    expect(resolveGqrConfig()).toEqual<GqrConfig>({
      fetchKMultiplier: 2,
      nSteps: 25,
      learningRate: 0.1,
      temperature: 1,
      mixtureAlpha: 0.5,
      candidatePoolMode: 'union',
      scorerMode: 'auto',
      target: 'per-step',
      optimizer: 'gd',
    });
  });

  it('keeps given options and treats undefined as absent', () => {
    const config = resolveGqrConfig({ nSteps: 3, learningRate: undefined, target: 'fixed', optimizer: 'adam' });
    expect(config.nSteps).toBe(3);
    expect(config.learningRate).toBe(0.1);
    expect(config.target).toBe('fixed');
    expect(config.optimizer).toBe('adam');
  });

  it('does not share state with the frozen defaults', () => {
    const config = resolveGqrConfig();
    config.nSteps = 7;
    expect(DEFAULT_GQR_CONFIG.nSteps).toBe(25);
  });

  const invalid: [Partial<GqrConfig>, string][] = [
    [{ fetchKMultiplier: 0 }, 'fetch_k_multiplier must be positive'],
    [{ fetchKMultiplier: -2 }, 'fetch_k_multiplier must be positive'],
    [{ fetchKMultiplier: Number.NaN }, 'fetch_k_multiplier must be positive'],
    [{ nSteps: 0 }, 'n_steps must be positive'],
    [{ nSteps: -1 }, 'n_steps must be positive'],
    [{ nSteps: 2.5 }, 'n_steps must be an integer'],
    [{ nSteps: 100_000_000_000 }, 'n_steps must be a whole number from 1 to 10000'],
    [{ learningRate: 0 }, 'learning_rate must be positive'],
    [{ learningRate: Number.POSITIVE_INFINITY }, 'learning_rate must be positive'],
    [{ temperature: 0 }, 'temperature must be positive'],
    [{ temperature: -0.5 }, 'temperature must be positive'],
    [{ mixtureAlpha: -0.01 }, 'mixture_alpha must be between 0 and 1'],
    [{ mixtureAlpha: 1.01 }, 'mixture_alpha must be between 0 and 1'],
    [{ mixtureAlpha: Number.NaN }, 'mixture_alpha must be between 0 and 1'],
    [{ candidatePoolMode: 'both' as never }, "candidate_pool_mode must be either 'primary' or 'union'"],
    [{ scorerMode: 'dense' as never }, "scorer_mode must be one of 'auto', 'single', or 'multi'"],
    [{ target: 'blend' as never }, "target must be either 'per-step' or 'fixed'"],
    [{ optimizer: 'sgd' as never }, "optimizer must be either 'gd' or 'adam'"],
  ];
  it.each(invalid)('rejects %o with the reference message', (config, message) => {
    expect(() => resolveGqrConfig(config)).toThrow(new Error(message));
  });

  it('accepts the boundary values of mixture_alpha', () => {
    expect(resolveGqrConfig({ mixtureAlpha: 0 }).mixtureAlpha).toBe(0);
    expect(resolveGqrConfig({ mixtureAlpha: 1 }).mixtureAlpha).toBe(1);
  });

  it('reports the first invalid option in the reference order', () => {
    expect(() => resolveGqrConfig({ scorerMode: 'x' as never, learningRate: -1, nSteps: 0 })).toThrow(
      'n_steps must be positive',
    );
  });
});

describe('gqrFetchK', () => {
  it('is topK × fetchKMultiplier', () => {
    expect(gqrFetchK(10)).toBe(20);
    expect(gqrFetchK(3, { fetchKMultiplier: 3 })).toBe(9);
    expect(gqrFetchK(0)).toBe(0);
  });

  it('rounds a fractional product up', () => {
    expect(gqrFetchK(5, { fetchKMultiplier: 1.5 })).toBe(8);
  });

  it('validates topK and the config', () => {
    expect(() => gqrFetchK(-1)).toThrow('top_k must be a non-negative integer');
    expect(() => gqrFetchK(2.5)).toThrow('top_k must be a non-negative integer');
    expect(() => gqrFetchK(10, { fetchKMultiplier: 0 })).toThrow('fetch_k_multiplier must be positive');
  });
});

describe('GQR upper bounds (numeric rules, after the reference checks)', () => {
  it('refuses a learning rate or temperature a typo made huge, with the range', () => {
    expect(() => resolveGqrConfig({ learningRate: 1e11 })).toThrow('learning_rate must be a number above 0, up to 1000');
    expect(() => resolveGqrConfig({ temperature: 1e11 })).toThrow('temperature must be a number above 0, up to 1000');
    expect(() => resolveGqrConfig({ learningRate: 0 })).toThrow('learning_rate must be positive'); // the reference's words first
    expect(resolveGqrConfig({ learningRate: 1000, temperature: 0.001 })).toMatchObject({ learningRate: 1000, temperature: 0.001 });
  });
});
