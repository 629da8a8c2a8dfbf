import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { exportRunJson, parseRunJson } from './run-json.ts';
import { buildRunRecord } from './run-record.ts';
import { readRunEnvironment, runEnvironment, runtimeOfEnvironment, sha256Hex, type HostEnvironment } from './run-environment.ts';
import { WORKBENCH_VERSION } from './workbench-version.ts';
import type { PipelineSpec } from '../retrieval/index.ts';

const browser: HostEnvironment = {
  transformersJs: '4.3.2',
  onnxRuntime: { package: 'onnxruntime-web', version: '1.31.0-dev' },
  host: { kind: 'browser', userAgent: 'Mozilla/5.0 Chrome/156' },
};
const hash = (c: string) => c.repeat(64);
const bm25: PipelineSpec = { kind: 'bm25', params: { k1: 0.9, b: 0.4, d: 0, termCountBoost: false } };
const dense: PipelineSpec = { kind: 'dense', modelKey: 'tiny-bert|fp32|mean' };

describe('run environment', () => {
  it('records the workbench, transformers.js, ONNX Runtime, the host and the hashes of the models the pipeline uses', () => {
    const files = {
      'tiny-bert|fp32|mean': [
        { path: 'tokenizer.json', sha256: hash('b'), bytes: 20 },
        { path: 'config.json', sha256: hash('a'), bytes: 10 },
      ],
      'other|fp32|cls': [{ path: 'config.json', sha256: hash('c'), bytes: 1 }],
    };
    const gqr: PipelineSpec = { kind: 'gqr', primary: dense, complementary: bm25, config: {} as never };
    const environment = runEnvironment(browser, gqr, files);
    expect(environment).toEqual({
      workbench: WORKBENCH_VERSION,
      transformersJs: '4.3.2',
      onnxRuntime: { package: 'onnxruntime-web', version: '1.31.0-dev' },
      host: { kind: 'browser', userAgent: 'Mozilla/5.0 Chrome/156' },
      // only the pipeline's model, files sorted by path
      modelFiles: { 'tiny-bert|fp32|mean': [files['tiny-bert|fp32|mean'][1], files['tiny-bert|fp32|mean'][0]] },
    });
    expect(runEnvironment(browser, bm25, files).modelFiles).toBeUndefined();
    expect(runtimeOfEnvironment(environment)).toEqual({ 'transformers.js': '4.3.2', 'onnxruntime-web': '1.31.0-dev', browser: 'Mozilla/5.0 Chrome/156' });
  });

  it('fills versions.runtime, is kept on the run and survives a JSON export', () => {
    const node: HostEnvironment = { transformersJs: '4.3.2', onnxRuntime: { package: 'onnxruntime-node', version: '1.30.0' }, host: { kind: 'node', version: 'v20.20.2', platform: 'linux x64' } };
    const environment = runEnvironment(node, dense, { 'tiny-bert|fp32|mean': [{ path: 'onnx/model.onnx', sha256: hash('d'), bytes: 5 }] });
    const record = buildRunRecord({ name: 'd', corpusId: 'c', corpusName: 'C', pipeline: dense, run: new Map([['q', [{ id: 'x', score: 1 }]]]), environment });
    expect(record.versions.runtime).toEqual({ 'transformers.js': '4.3.2', 'onnxruntime-node': '1.30.0', node: 'v20.20.2' });
    expect(record.environment).toEqual(environment);
    expect(parseRunJson(exportRunJson(record)).environment).toEqual(environment);
  });

  it('refuses a damaged environment in a file with the field named', () => {
    const good = runEnvironment(browser, dense, { 'tiny-bert|fp32|mean': [{ path: 'config.json', sha256: hash('a'), bytes: 1 }] });
    expect(readRunEnvironment(structuredClone(good), 'env')).toEqual(good);
    expect(() => readRunEnvironment({ ...good, host: { kind: 'phone' } }, 'env')).toThrow('env.host.kind must be "browser" or "node"');
    const badHash = structuredClone(good);
    badHash.modelFiles!['tiny-bert|fp32|mean']![0]!.sha256 = 'xyz';
    expect(() => readRunEnvironment(badHash, 'env')).toThrow('env.modelFiles["tiny-bert|fp32|mean"][0].sha256 must be 64 lower-case hex digits');
    expect(() => readRunEnvironment({ ...good, transformersJs: 3 }, 'env')).toThrow('env.transformersJs must be a non-empty string');
  });

  it('hashes bytes with SHA-256 as Node does', async () => {
    const bytes = new TextEncoder().encode('deep search');
    expect(await sha256Hex(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});
