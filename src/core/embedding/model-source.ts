import { EMBEDDING_MODEL_PRESETS, findEmbeddingPreset, type EmbeddingModelPreset } from './registry.ts';

/**
 * Where a model's files are read from, saved with the vectors so the same model can be loaded again to embed
 * queries (and to resume embedding).
 * - `app`: served by the app itself under its `models/` path, filled from public/models/ (the generated tiny-bert
 *   and whatever `npm run models` wrote there; offline).
 * - `remote`: downloaded from a model host: the Hugging Face Hub or a custom mirror (`host`).
 * - `folder`: a model folder the user picked from disk, kept in this browser (offline).
 * - `path`: a folder on the file system (CLI only).
 */
export interface EmbeddingModelSource {
  /** Where the files come from. */
  location: 'app' | 'remote' | 'folder' | 'path';
  /** Model id: the folder name for `app`, `folder` and `path`, the repository id for `remote`. */
  modelId: string;
  /** Base URL of the model host (`remote`); default the Hugging Face Hub. */
  host?: string;
  /** Folder that contains the model folder (`path` only). */
  parentPath?: string;
}

/** The Hugging Face Hub, transformers.js's default model host. */
export const HUGGING_FACE_HOST = 'https://huggingface.co/';

/**
 * The preset for a model id or a folder name: an exact id first, then a preset whose id ends with the name
 * (a folder `all-MiniLM-L6-v2` gets the settings of `Xenova/all-MiniLM-L6-v2`).
 */
export function presetForModel(modelIdOrFolder: string): EmbeddingModelPreset | undefined {
  const exact = findEmbeddingPreset(modelIdOrFolder);
  if (exact) return exact;
  const name = modelIdOrFolder.split('/').pop()!.toLowerCase();
  return EMBEDDING_MODEL_PRESETS.find((preset) => preset.modelId.split('/').pop()!.toLowerCase() === name);
}

/** A short description of a source, for lists ("served by the app", "Hugging Face Hub", …). */
export function describeModelSource(source: EmbeddingModelSource): string {
  switch (source.location) {
    case 'app':
      return 'served by the app (public/models)';
    case 'remote':
      return !source.host || source.host === HUGGING_FACE_HOST ? 'Hugging Face Hub' : `host ${source.host}`;
    case 'folder':
      return 'folder from this computer';
    case 'path':
      return `folder ${source.parentPath ?? ''}/${source.modelId}`;
  }
}
