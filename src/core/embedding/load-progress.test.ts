import { describe, expect, it } from 'vitest';
import { toLoadProgress } from './load-progress.ts';

describe('toLoadProgress', () => {
  it('maps transformers.js progress events to per-file and total progress', () => {
    expect(toLoadProgress({ status: 'initiate', name: 'm', file: 'config.json' })).toEqual({ status: 'initiate', file: 'config.json' });
    expect(toLoadProgress({ status: 'progress', file: 'onnx/model.onnx', loaded: 5, total: 10, progress: 50 })).toEqual({
      status: 'progress',
      file: 'onnx/model.onnx',
      loaded: 5,
      total: 10,
      progress: 50,
    });
    expect(toLoadProgress({ status: 'progress_total', loaded: 7, total: 20, progress: 35 })).toEqual({ status: 'total', loaded: 7, total: 20, progress: 35 });
    expect(toLoadProgress({ status: 'ready', task: 'feature-extraction' })).toEqual({ status: 'ready' });
    expect(toLoadProgress(undefined)).toEqual({ status: 'ready' });
  });
});
