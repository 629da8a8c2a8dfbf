import type { EmbeddingPrefixes } from './model-info.ts';

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
    label: 'tiny-bert (generated test model)',
    pooling: 'mean',
    prefixes: { query: '', passage: '' },
    dimensions: 32,
    maxTokens: 128,
    localSetup: 'npm run gen:model',
  },
];

/** The preset for a model id, if it is a known model. */
export function findEmbeddingPreset(modelId: string): EmbeddingModelPreset | undefined {
  return EMBEDDING_MODEL_PRESETS.find((preset) => preset.modelId === modelId);
}
