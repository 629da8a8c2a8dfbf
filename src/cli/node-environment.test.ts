import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashModelFolder, nodeHostEnvironment } from './node-environment.ts';

describe('the CLI run environment', () => {
  it('names Node and the installed transformers.js / onnxruntime-node', () => {
    const env = nodeHostEnvironment();
    expect(env.host).toEqual({ kind: 'node', version: process.version, platform: `${process.platform} ${process.arch}` });
    expect(env.transformersJs).toMatch(/^\d+\.\d+\.\d+/);
    expect(env.onnxRuntime).toEqual({ package: 'onnxruntime-node', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('hashes the files a load of one dtype reads, skipping other weights and hidden files', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-model-'));
    fs.mkdirSync(path.join(dir, 'onnx'));
    fs.writeFileSync(path.join(dir, 'config.json'), '{"a":1}');
    fs.writeFileSync(path.join(dir, '.DS_Store'), 'x');
    fs.writeFileSync(path.join(dir, 'onnx', 'model.onnx'), 'fp32 weights');
    fs.writeFileSync(path.join(dir, 'onnx', 'model_quantized.onnx'), 'q8 weights');
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(await hashModelFolder(dir)).toEqual([
      { path: 'config.json', sha256: sha('{"a":1}'), bytes: 7 },
      { path: 'onnx/model.onnx', sha256: sha('fp32 weights'), bytes: 12 },
    ]);
    expect((await hashModelFolder(dir, 'q8')).map((f) => f.path)).toEqual(['config.json', 'onnx/model_quantized.onnx']);
  });
});
