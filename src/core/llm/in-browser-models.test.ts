import { describe, expect, it } from 'vitest';
import { findLocalInBrowserModel, howToGetTextModel, LOCAL_IN_BROWSER_MODELS, probeAppTextModel } from './in-browser-models.ts';

describe('local in-browser models', () => {
  it('finds the model of `npm run models` by id, with spaces around it', () => {
    expect(findLocalInBrowserModel(' local/qwen2.5-coder-0.5b-instruct ')?.dtype).toBe('q4');
    expect(findLocalInBrowserModel('onnx-community/Qwen2.5-0.5B-Instruct')).toBeUndefined();
  });

  it("asks the app for the config, tokenizer and the models step's export record, and says what is missing", async () => {
    const asked: string[] = [];
    const served = new Set(['/models/local/qwen2.5-coder-0.5b-instruct/config.json', '/models/local/qwen2.5-coder-0.5b-instruct/tokenizer.json']);
    const presence = await probeAppTextModel('/models/', 'local/qwen2.5-coder-0.5b-instruct', async (url, init) => {
      asked.push(`${init.method} ${url}`);
      return { ok: served.has(url) };
    });
    expect(asked.sort()).toEqual([
      'HEAD /models/local/qwen2.5-coder-0.5b-instruct/config.json',
      'HEAD /models/local/qwen2.5-coder-0.5b-instruct/export.json',
      'HEAD /models/local/qwen2.5-coder-0.5b-instruct/tokenizer.json',
      'HEAD /models/local/qwen2.5-coder-0.5b-instruct/tokenizer_config.json',
    ]);
    expect(presence).toEqual({ modelId: 'local/qwen2.5-coder-0.5b-instruct', present: false, missingFiles: ['tokenizer_config.json', 'export.json'] });
  });

  it('says how to get it', () => {
    expect(howToGetTextModel(LOCAL_IN_BROWSER_MODELS[0]!)).toBe(
      "Not present in this app: run `npm run models` in the workbench's folder (it exports the model to public/models/local/qwen2.5-coder-0.5b-instruct/), then reload this page (`npm start` and `npm run dev` serve public/models/ as it is; no new build is needed).",
    );
  });
});
