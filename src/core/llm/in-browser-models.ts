// In-browser chat models that `npm run models` writes into the app's public/models/ (served at /models/), so the
// in-browser provider can run them offline; any other model id comes from the Hugging Face hub.
import type { AppModelPresence } from '../embedding/index.ts';

/** A text-generation model the project itself exports for transformers.js. */
export interface LocalInBrowserModel {
  /** Folder under public/models/ and the id transformers.js is given. */
  modelId: string;
  /** What it is, in a few words. */
  label: string;
  /** The weight variant the browser uses (onnx/model_<suffix>.onnx). */
  dtype: 'q4';
  /** Size of the files the browser downloads from the app, for the hint. */
  approxBytes: number;
  /** The project command that writes it. */
  localSetup: string;
}

/** Must match BROWSER_LLM in scripts/browser-llm.mjs (a test checks it). */
export const LOCAL_IN_BROWSER_MODELS: readonly LocalInBrowserModel[] = [
  {
    modelId: 'local/qwen2.5-coder-0.5b-instruct',
    label: 'Qwen2.5-Coder-0.5B-Instruct (from the Q4_K_M GGUF, 4-bit ONNX)',
    dtype: 'q4',
    // onnx/model_q4.onnx (862 MB) and the tokenizer (11 MB).
    approxBytes: 873_000_000,
    localSetup: 'npm run models',
  },
];

export function findLocalInBrowserModel(modelId: string): LocalInBrowserModel | undefined {
  return LOCAL_IN_BROWSER_MODELS.find((m) => m.modelId === modelId.trim());
}

/**
 * The files whose presence says the app serves a local model: the config, the tokenizer and chat template, and the
 * models step's export.json, written last, once every weight file is in place. The weights themselves are not
 * asked for: `vite preview` reads a whole file even for a HEAD request (a minute for the 862 MB q4 file here).
 */
export const LOCAL_TEXT_MODEL_MARKERS = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'export.json'] as const;

/** Whether the app serves `modelId` from its `models/` path (e.g. `/models/`), with HEAD requests. */
export async function probeAppTextModel(
  modelsPath: string,
  modelId: string,
  fetchFile: (url: string, init: { method: 'HEAD' }) => Promise<{ ok: boolean }> = fetch,
): Promise<AppModelPresence> {
  const id = modelId.trim();
  const base = `${modelsPath.endsWith('/') ? modelsPath : `${modelsPath}/`}${id}/`;
  const answers = await Promise.all(
    LOCAL_TEXT_MODEL_MARKERS.map(async (file) => ({ file, ok: await fetchFile(base + file, { method: 'HEAD' }).then((r) => r.ok, () => false) })),
  );
  const missingFiles = answers.filter((a) => !a.ok).map((a) => a.file);
  return { modelId: id, present: missingFiles.length === 0, missingFiles };
}

/** Words that say how to get a local in-browser model that the app does not serve. */
export function howToGetTextModel(model: LocalInBrowserModel): string {
  return `Not present in this app: run \`${model.localSetup}\` in the workbench's folder (it exports the model to public/models/${model.modelId}/), then reload this page (\`npm start\` and \`npm run dev\` serve public/models/ as it is; no new build is needed).`;
}
