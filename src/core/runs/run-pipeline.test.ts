import { describe, expect, it } from 'vitest';
import type { PipelineSpec } from '../retrieval/index.ts';
import { describeRunPipeline, modelsOfPipeline } from './run-pipeline.ts';

describe('run pipelines', () => {
  it('describes workbench pipelines, imported files and unknown kinds', () => {
    expect(describeRunPipeline({ kind: 'bm25', params: { k1: 1.2, b: 0.75, d: 0, termCountBoost: false } })).toBe('BM25 k1=1.2 b=0.75');
    expect(describeRunPipeline({ kind: 'imported', fileName: 'x.run' })).toBe('Imported: x.run');
    expect(describeRunPipeline({ kind: 'from-the-future' } as unknown as PipelineSpec)).toBe('from-the-future');
  });

  it('finds the models of a pipeline at any depth', () => {
    const key = JSON.stringify(['Xenova/bge-small-en-v1.5', 'fp32', 'cls', 384, '', '']);
    const spec = { kind: 'rrf', pipelines: [{ kind: 'bm25', params: {} }, { kind: 'dense', modelKey: key }], k: 60 } as unknown as PipelineSpec;
    expect(modelsOfPipeline(spec)).toEqual({ 'Xenova/bge-small-en-v1.5': key });
    expect(modelsOfPipeline({ kind: 'bm25', params: { k1: 1, b: 1, d: 0, termCountBoost: false } })).toEqual({});
  });
});
