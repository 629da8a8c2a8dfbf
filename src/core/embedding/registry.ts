import type { EmbeddingDtype, EmbeddingPrefixes } from './model-info.ts';

/** Sensible defaults for a known embedding model. */
export interface EmbeddingModelPreset {
  /** transformers.js model id, also the folder name under the local model path. */
  modelId: string;
  /** Short name for menus. */
  label: string;
  /** Pooling the model was trained with. */
  pooling: 'mean' | 'cls';
  /** Prefixes the model expects. */
  prefixes: EmbeddingPrefixes;
  /** Output width. */
  dimensions: number;
  /** Max tokens per text (special tokens included); longer texts are truncated. */
  maxTokens: number;
  /** The project command that writes this model into public/models/ (absent: the user brings the files). */
  localSetup?: string;
  /** Weights chosen by default (fp32 when absent): only a variant measured close to fp32 (worst cosine ≥ 0.99). */
  defaultDtype?: EmbeddingDtype;
  /** A generated model for tests: its vectors carry no meaning. */
  testModel?: boolean;
}

const BGE_QUERY_INSTRUCTION = 'Represent this sentence for searching relevant passages: ';

/** Known models. `npm run models` writes the real encoders marked `localSetup` to public/models/; `tiny-bert` is generated. */
export const EMBEDDING_MODEL_PRESETS: readonly EmbeddingModelPreset[] = [
  {
    modelId: 'Xenova/all-MiniLM-L6-v2',
    label: 'all-MiniLM-L6-v2',
    pooling: 'mean',
    prefixes: { query: '', passage: '' },
    dimensions: 384,
    // sentence-transformers' max_seq_length for this model (positions go to 512, training used 256).
    maxTokens: 256,
    localSetup: 'npm run models',
    // q8 (model_quantized.onnx) against fp32: worst cosine 0.9954 cranfield, 0.9928 adi, 0.9912 npl, 0.9931 hotpotqa
    // (docs/real-models.md), and several times faster in the browser's single-threaded wasm.
    defaultDtype: 'q8',
  },
  {
    // sentence-transformers' modules.json: Transformer → Pooling (pooling_mode_mean_tokens) → Normalize; MPNet-base,
    // 12 layers, hidden size 768. About six times MiniLM-L6's compute per token.
    modelId: 'Xenova/all-mpnet-base-v2',
    label: 'all-mpnet-base-v2',
    pooling: 'mean',
    prefixes: { query: '', passage: '' },
    dimensions: 768,
    // sentence_bert_config.json's max_seq_length (positions go to 512).
    maxTokens: 384,
    localSetup: 'npm run models',
  },
  {
    modelId: 'Xenova/bge-small-en-v1.5',
    label: 'BGE small en v1.5',
    pooling: 'cls',
    prefixes: { query: BGE_QUERY_INSTRUCTION, passage: '' },
    dimensions: 384,
    maxTokens: 512,
  },
  {
    modelId: 'Xenova/e5-small-v2',
    label: 'E5 small v2',
    pooling: 'mean',
    prefixes: { query: 'query: ', passage: 'passage: ' },
    dimensions: 384,
    maxTokens: 512,
  },
  {
    modelId: 'tiny-bert',
    label: 'tiny-bert (test model: random weights, meaningless vectors)',
    pooling: 'mean',
    prefixes: { query: '', passage: '' },
    dimensions: 32,
    maxTokens: 128,
    localSetup: 'npm run gen:model',
    testModel: true,
  },
];

/** The preset for a model id, if it is a known model. */
export function findEmbeddingPreset(modelId: string): EmbeddingModelPreset | undefined {
  return EMBEDDING_MODEL_PRESETS.find((preset) => preset.modelId === modelId);
}

/** Served models preferred as the default, best first: MiniLM (fast, q8 measured), then MPNet (better, ~6x slower). */
const DEFAULT_MODEL_ORDER = ['Xenova/all-MiniLM-L6-v2', 'Xenova/all-mpnet-base-v2', 'Xenova/bge-small-en-v1.5', 'Xenova/e5-small-v2'];

/**
 * The preset to preselect given which presets are served (`served(modelId, dtype)`): the first real encoder of the
 * preference order served with its default weights (or fp32), else the test model, else none.
 */
export function preferredServedPreset(served: (modelId: string, dtype: EmbeddingDtype) => boolean): { preset: EmbeddingModelPreset; dtype: EmbeddingDtype } | undefined {
  for (const modelId of DEFAULT_MODEL_ORDER) {
    const preset = findEmbeddingPreset(modelId)!;
    for (const dtype of [...new Set([preset.defaultDtype ?? 'fp32', 'fp32'] as EmbeddingDtype[])]) if (served(modelId, dtype)) return { preset, dtype };
  }
  const test = EMBEDDING_MODEL_PRESETS.find((p) => p.testModel)!;
  return served(test.modelId, test.defaultDtype ?? 'fp32') ? { preset: test, dtype: test.defaultDtype ?? 'fp32' } : undefined;
}
