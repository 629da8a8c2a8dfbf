import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EmbeddingSetRecord } from '../../core/index.ts';
import { signalOfPort } from '../../workers/abort-bridge.ts';
import type { EmbedEvent } from '../../workers/embed-worker-api.ts';

// The embed worker as the store reaches it. It stops on either cancellation path (its cancel() call, or an abort
// port), so the test holds whichever the worker offers.
const worker = vi.hoisted(() => ({ embed: vi.fn(), cancel: vi.fn(), stop: null as null | ((reason: unknown) => void) }));
vi.mock('../services/workers.ts', () => ({ getEmbedWorker: () => worker }));
vi.mock('../services/stores.ts', () => ({ requestPersistence: async () => false }));

const { applyEmbedEvent, DEFAULT_CHOICE, dtypeInFolder, NO_EMBED_PROGRESS, resumeEmbedding, settingsOfChoice, settingsOfSet, startEmbedding, useEmbedChoice, useEmbedJob, withPresetDefaults } =
  await import('./embed-store.ts');

const set = { corpusId: 'c1', modelKey: 'tiny', totalRows: 168, rowsDone: 0, tokens: false, device: 'wasm', source: { location: 'app', modelId: 'tiny-bert' }, model: { modelId: 'tiny-bert', dtype: 'fp32', pooling: 'mean', prefixes: { query: 'q: ', passage: 'p: ' } }, maxTokens: 128 } as unknown as EmbeddingSetRecord;

describe('applyEmbedEvent', () => {
  it('tracks each model file, then the opened set, then documents', () => {
    let p = applyEmbedEvent(NO_EMBED_PROGRESS, { kind: 'load', progress: { status: 'progress', file: 'onnx/model.onnx', loaded: 10, total: 100 } } as EmbedEvent);
    expect(p.files['onnx/model.onnx']).toEqual({ loaded: 10, total: 100, done: false });
    p = applyEmbedEvent(p, { kind: 'load', progress: { status: 'done', file: 'onnx/model.onnx' } } as EmbedEvent);
    expect(p.files['onnx/model.onnx']).toEqual({ loaded: 100, total: 100, done: true });
    // Document progress before the set is open is ignored (nothing to count against).
    const early = applyEmbedEvent(p, { kind: 'progress', progress: { done: 5 } } as EmbedEvent);
    expect(early.progress).toBeNull();
    p = applyEmbedEvent(p, { kind: 'start', set, resumedAt: 40, device: 'wasm' });
    expect(p.started).toEqual({ set, resumedAt: 40, device: 'wasm' });
    p = applyEmbedEvent(p, { kind: 'progress', progress: { done: 64, total: 168, docsPerSecond: 20, secondsLeft: 5 } } as EmbedEvent);
    expect(p.progress).toMatchObject({ done: 64 });
    expect(p.files['onnx/model.onnx']!.done).toBe(true);
  });
});

describe('model choice', () => {
  it('takes the preset pooling and prefixes, and trims the id and host into worker settings', () => {
    expect(withPresetDefaults(DEFAULT_CHOICE, 'Xenova/e5-small-v2')).toMatchObject({ modelId: 'Xenova/e5-small-v2', pooling: 'mean', queryPrefix: 'query: ', passagePrefix: 'passage: ' });
    expect(withPresetDefaults(DEFAULT_CHOICE, 'Xenova/bge-small-en-v1.5')).toMatchObject({ pooling: 'cls', passagePrefix: '' });
    expect(withPresetDefaults(DEFAULT_CHOICE, 'someone/unknown')).toEqual({ ...DEFAULT_CHOICE, modelId: 'someone/unknown' });
    const settings = settingsOfChoice({ ...DEFAULT_CHOICE, location: 'remote', modelId: ' org/m ', host: ' https://models.example ' });
    expect(settings.source).toEqual({ location: 'remote', modelId: 'org/m', host: 'https://models.example' });
    expect(settingsOfSet(set)).toEqual({ source: set.source, dtype: 'fp32', pooling: 'mean', prefixes: { query: 'q: ', passage: 'p: ' }, maxTokens: 128 });
  });
});

describe('model folder choice', () => {
  const fp32Only = ['config.json', 'tokenizer.json', 'onnx/model.onnx'];
  it('keeps the chosen weights when the folder holds them, else takes weights it holds', () => {
    expect(dtypeInFolder([...fp32Only, 'onnx/model_quantized.onnx'], 'q8')).toBe('q8');
    expect(dtypeInFolder(fp32Only, 'q8')).toBe('fp32');
    expect(dtypeInFolder(['onnx/model_fp16.onnx', 'onnx/model_quantized.onnx'], 'fp32')).toBe('q8');
    expect(dtypeInFolder(['config.json'], 'q8')).toBe('q8');
  });

  it('a folder without the preselected q8 weights is chosen with its fp32 ones', () => {
    useEmbedChoice.setState({ choice: { ...DEFAULT_CHOICE, location: 'app', modelId: 'Xenova/all-MiniLM-L6-v2', dtype: 'q8' }, touched: false });
    useEmbedChoice.getState().setChoice({ location: 'folder' });
    useEmbedChoice.getState().chooseFolder('tiny-bert', fp32Only);
    expect(useEmbedChoice.getState().choice).toMatchObject({ location: 'folder', modelId: 'tiny-bert', dtype: 'fp32' });
  });
});

describe('embedding job', () => {
  beforeEach(() => {
    useEmbedJob.setState({ state: { status: 'idle' } });
    useEmbedChoice.setState({ choice: DEFAULT_CHOICE });
    worker.embed.mockReset();
    worker.cancel.mockReset();
    worker.cancel.mockImplementation(() => worker.stop?.(new DOMException('Embedding was cancelled', 'AbortError')));
  });

  it('runs from loading the model to done, with where it resumed and the device', async () => {
    worker.embed.mockImplementation(async (_request, onEvent: (e: EmbedEvent) => void) => {
      onEvent({ kind: 'start', set, resumedAt: 40, device: 'wasm' });
      expect(useEmbedJob.getState().state).toMatchObject({ status: 'running', progress: { started: { resumedAt: 40 } } });
      return { ...set, rowsDone: 168, complete: true };
    });
    useEmbedChoice.getState().setChoice({ batchSize: 8 });
    await startEmbedding('c1');
    expect(worker.embed.mock.calls[0]![0]).toMatchObject({ corpusId: 'c1', batchSize: 8, tokens: false, model: { source: { location: 'app', modelId: 'tiny-bert' } } });
    expect(useEmbedJob.getState().state).toMatchObject({ status: 'done', info: { corpusId: 'c1', modelId: 'tiny-bert' }, result: { resumedAt: 40, device: 'wasm', set: { rowsDone: 168 } } });
  });

  it('cancel shows cancelling until the worker stops, then cancelled', async () => {
    worker.embed.mockImplementation((_request, _onEvent, port?: MessagePort) => {
      const signal = signalOfPort(port);
      return new Promise((_, reject) => {
        worker.stop = reject;
        signal?.addEventListener('abort', () => reject(signal.reason));
      });
    });
    const job = resumeEmbedding({ ...set, rowsDone: 40 });
    await vi.waitFor(() => expect(worker.embed).toHaveBeenCalled());
    useEmbedJob.getState().cancel();
    expect(useEmbedJob.getState().state.status).toBe('cancelling');
    await job;
    expect(useEmbedJob.getState().state).toMatchObject({ status: 'cancelled', info: { modelId: 'tiny-bert' } });
  });

  it('a failure keeps the worker words', async () => {
    worker.embed.mockRejectedValue(new Error('Could not read onnx/model.onnx from the model folder'));
    await startEmbedding('c1');
    expect(useEmbedJob.getState().state).toMatchObject({ status: 'failed', message: 'Could not read onnx/model.onnx from the model folder' });
  });
});
