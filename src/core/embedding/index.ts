// The door of embedding: embedding models (load, describe, embed texts) and the files they come from.
export {
  type AppModelPresence, DTYPE_FILES, howToGetModel, presenceInServedFiles, probeAppModel, readServedModelFiles,
} from './app-model-presence.ts';
export { documentText } from './document-text.ts';
export { Embedder, type EmbeddingDevice, loadEmbedder } from './embedder.ts';
export { EmbeddingError } from './embedding-error.ts';
export { defaultLengthSortWindow, lengthSortWindowSize, longestFirst } from './length-order.ts';
export { type ModelLoadProgress, toLoadProgress } from './load-progress.ts';
export { type ModelFileHash } from './model-file-hash.ts';
export {
  assertSameEmbeddingModel, describeEmbeddingModel, type EmbeddingDtype, type EmbeddingModelInfo,
  type EmbeddingPrefixes, type QueryEmbedding, type QueryTokenEmbedding, sameEmbeddingModel, type TokenEmbedding,
} from './model-info.ts';
export { embeddingModelKey, modelIdOfKey } from './model-key.ts';
export { describeModelSource, type EmbeddingModelSource, HUGGING_FACE_HOST, presetForModel } from './model-source.ts';
export { EMBEDDING_MODEL_PRESETS, preferredServedPreset } from './registry.ts';
export { type TransformersModule } from './runtime-versions.ts';
export { encodeSafetensorsMatrix, parseSafetensorsMatrix, SafetensorsError } from './safetensors.ts';
