// npm run test:real: the in-browser LLM of `npm run models` (local/qwen2.5-coder-0.5b-instruct, exported from the
// 0.5B GGUF) in transformers.js (Node): the chat prompt tokenises as in Python, fp32 greedy decoding gives the same
// tokens as transformers on the same weights (export.json's reference), and the provider streams sensible text
// from the 4-bit weights the browser uses.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { BROWSER_LLM, browserLlmPresent, browserLlmRecord } from '../../scripts/browser-llm.mjs';
import { findLocalInBrowserModel, LOCAL_IN_BROWSER_MODELS, TransformersTextProvider } from '../../src/core/index.ts';

const root = path.resolve(import.meta.dirname, '../..');
const modelsDir = `${path.join(root, 'public/models')}${path.sep}`;
const missing = browserLlmPresent(root) ? null : `public/models/${BROWSER_LLM.modelId}/ not found (run \`npm run models -- browser-llm\`)`;
// The first tokens must match exactly; later ones may part on a near tie of fp32 sums.
const SAME_PREFIX = 20;

test('the app and the models step name the same local model', () => {
  expect(LOCAL_IN_BROWSER_MODELS.map((m) => m.modelId)).toEqual([BROWSER_LLM.modelId]);
});

describe(`${BROWSER_LLM.modelId} in transformers.js (Node)`, () => {
  if (missing) {
    test.skip(`fp32 greedy tokens as transformers, q4 through the provider — skipped: ${missing}`, () => {});
    return;
  }
  const record = browserLlmRecord(root)!;
  const { messages, prompt_ids: promptIds, greedy_ids: greedyIds } = record.reference;

  test(`fp32: the chat prompt's tokens and the first ${SAME_PREFIX} greedy tokens are transformers'`, async () => {
    const { env, AutoTokenizer, AutoModelForCausalLM } = await import('@huggingface/transformers');
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = modelsDir;
    const tokenizer = await AutoTokenizer.from_pretrained(BROWSER_LLM.modelId);
    const inputs = tokenizer.apply_chat_template(messages, { add_generation_prompt: true, return_dict: true }) as unknown as { input_ids: { tolist(): bigint[][] } };
    const prompt = inputs.input_ids.tolist()[0]!.map(Number);
    expect(prompt).toEqual(promptIds);
    const model = await AutoModelForCausalLM.from_pretrained(BROWSER_LLM.modelId, { dtype: 'fp32', device: 'cpu' });
    const started = performance.now();
    const output = (await model.generate({ ...(inputs as object), max_new_tokens: greedyIds.length, do_sample: false })) as { tolist(): bigint[][] };
    const seconds = (performance.now() - started) / 1000;
    const ids = output.tolist()[0]!.map(Number).slice(prompt.length);
    let same = 0;
    while (same < ids.length && ids[same] === greedyIds[same]) same++;
    console.log(`fp32: ${same} of ${greedyIds.length} greedy tokens as transformers; ${(ids.length / seconds).toFixed(2)} tokens/s (prompt ${prompt.length} tokens)`);
    console.log(`fp32 text: ${JSON.stringify(tokenizer.decode(ids, { skip_special_tokens: true }))}`);
    await model.dispose();
    expect(same).toBeGreaterThanOrEqual(SAME_PREFIX);
  });

  test('q4 (the browser weights): the provider streams a sensible reply', async () => {
    const local = findLocalInBrowserModel(BROWSER_LLM.modelId)!;
    const provider = new TransformersTextProvider({ modelId: local.modelId, dtype: local.dtype, device: 'cpu', allowRemoteModels: false, localModelPath: modelsDir });
    const deltas: string[] = [];
    const started = performance.now();
    const reply = await provider.complete({ messages: messages as Array<{ role: 'user'; content: string }>, maxTokens: greedyIds.length }, { onDelta: (d) => deltas.push(d.content) });
    const seconds = (performance.now() - started) / 1000;
    const usage = reply.usage!;
    console.log(`q4 reply (${usage.completionTokens} tokens, ${(usage.completionTokens / seconds).toFixed(2)} tokens/s with prefill): ${JSON.stringify(reply.content)}`);
    expect(deltas.join('')).toBe(reply.content);
    expect(usage.promptTokens).toBe(promptIds.length);
    expect(usage.completionTokens).toBeGreaterThan(5);
    // On topic: the question was about tide mills.
    expect(reply.content.toLowerCase()).toMatch(/tide|mill/);
  });
});
