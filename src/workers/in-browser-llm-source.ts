// Where the HDS worker's in-browser chat model comes from: the app's own /models/ when it serves the model's files
// (written there by `npm run models`), read offline through the app's model-file fetcher; else the Hugging Face hub.
import { probeAppTextModel, type ModelLoadProgress, type TextModelSource, type TransformersModule } from '../core/index.ts';
import { ModelFileFetcher } from './model-file-fetcher.ts';

export function inBrowserModelSource(transformers: () => Promise<TransformersModule>) {
  return async (modelId: string, _dtype: string, onProgress?: (event: ModelLoadProgress) => void): Promise<TextModelSource> => {
    const modelsPath = `${import.meta.env.BASE_URL}models/`;
    const presence = await probeAppTextModel(modelsPath, modelId);
    const { env } = await transformers();
    if (!presence.present) {
      env.useCustomCache = false;
      env.customCache = null;
      env.useBrowserCache = true;
      return { allowRemoteModels: true };
    }
    const modelFolder = new URL(`${modelsPath}${modelId}/`, self.location.href).href;
    // Big files of the app's origin: once each, whole, outside the HTTP cache (see model-file-fetcher.ts).
    const files = new ModelFileFetcher({
      prefixes: [new URL(modelsPath, self.location.href).href],
      onProgress: ({ url, loaded, total }) => {
        if (!url.startsWith(modelFolder)) return;
        onProgress?.({ status: 'progress', file: url.slice(modelFolder.length), loaded, total, progress: total > 0 ? (100 * loaded) / total : undefined });
      },
    });
    env.fetch = files.fetch;
    env.useBrowserCache = false;
    env.useCustomCache = true;
    env.customCache = files.cache;
    return { allowRemoteModels: false, localModelPath: modelsPath, release: () => files.release() };
  };
}
