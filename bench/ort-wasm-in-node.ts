// ONNX Runtime's WebAssembly build (onnxruntime-web, the one transformers.js loads in a tab) against its native
// build (onnxruntime-node), both in Node, on the same model file and the same token batches: the runtime's own
// share of the tab's gap to Node, with no browser, worker or tokenizer in it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { longestFirst } from '../src/core/index.ts';

export interface RuntimeRates {
  /** Documents per second, best round, with the wasm build. */
  wasm: number;
  /** The same with the native build. */
  native: number;
  threads: number;
}

interface OrtLike {
  env: { wasm: { numThreads?: number; wasmPaths?: string } };
  Tensor: new (type: 'int64', data: BigInt64Array, dims: readonly number[]) => unknown;
  InferenceSession: {
    create(model: Uint8Array, options: Record<string, unknown>): Promise<{
      inputNames: readonly string[];
      run(feeds: Record<string, unknown>): Promise<unknown>;
      release(): Promise<void>;
    }>;
  };
}

/**
 * Runs `texts` (cut at `maxTokens`, batches of `batchSize` cut from the token order, as the workbench does) through
 * `modelFile` with each build, `rounds` timed rounds after one untimed batch, on `threads` threads.
 */
export async function ortWasmVersusNative(options: {
  modelRoot: string;
  modelId: string;
  modelFile: string;
  texts: readonly string[];
  maxTokens: number;
  batchSize: number;
  threads: number;
  rounds: number;
}): Promise<RuntimeRates> {
  const { texts, batchSize, threads, rounds } = options;
  env.localModelPath = options.modelRoot;
  env.allowRemoteModels = false;
  const tokenizer = await AutoTokenizer.from_pretrained(options.modelId);
  const encode = (batch: string[]) =>
    tokenizer(batch, { padding: true, truncation: true, max_length: options.maxTokens }) as unknown as Record<string, { data: BigInt64Array; dims: number[] }>;
  const counts = texts.map((t) => Number((encode([t]).attention_mask!.data as BigInt64Array).reduce((a, b) => a + b, 0n)));
  const order = longestFirst(counts);
  const batches: Array<Record<string, { data: BigInt64Array; dims: number[] }>> = [];
  for (let b = 0; b < order.length; b += batchSize) batches.push(encode(order.slice(b, b + batchSize).map((i) => texts[i]!)));
  const model = fs.readFileSync(options.modelFile);

  const rate = async (ort: OrtLike): Promise<number> => {
    const session = await ort.InferenceSession.create(model, { graphOptimizationLevel: 'all', intraOpNumThreads: threads });
    try {
      const feeds = batches.map((batch) =>
        Object.fromEntries(session.inputNames.map((name) => [name, new ort.Tensor('int64', batch[name]!.data, batch[name]!.dims)])),
      );
      await session.run(feeds[feeds.length - 1]!);
      let best = Infinity;
      for (let r = 0; r < rounds; r++) {
        const t0 = performance.now();
        for (const feed of feeds) await session.run(feed);
        best = Math.min(best, (performance.now() - t0) / 1000);
      }
      return texts.length / best;
    } finally {
      await session.release();
    }
  };

  const require = createRequire(import.meta.url);
  const web = (await import('onnxruntime-web')) as unknown as OrtLike;
  web.env.wasm.numThreads = threads;
  web.env.wasm.wasmPaths = `${path.dirname(require.resolve('onnxruntime-web'))}${path.sep}`;
  const wasm = await rate(web);
  const native = await rate((await import('onnxruntime-node')) as unknown as OrtLike);
  return { wasm, native, threads };
}
