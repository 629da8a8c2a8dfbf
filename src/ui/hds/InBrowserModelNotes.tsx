import { useQuery } from '@tanstack/react-query';
import { findLocalInBrowserModel, howToGetTextModel, LOCAL_IN_BROWSER_MODELS, probeAppTextModel, type LocalInBrowserModel } from '../../core/index.ts';
import { formatBytes } from '../shared/format.ts';

/** Which local in-browser models this app serves under /models/ (written to public/models/ before the build). */
function useLocalTextModels(): Map<string, boolean> | undefined {
  const { data } = useQuery({
    queryKey: ['app-text-model-presence'],
    queryFn: async () => {
      const modelsPath = `${import.meta.env.BASE_URL}models/`;
      const answers = await Promise.all(LOCAL_IN_BROWSER_MODELS.map((m) => probeAppTextModel(modelsPath, m.modelId)));
      return new Map(answers.map((a) => [a.modelId, a.present]));
    },
    staleTime: Infinity,
  });
  return data;
}

/** What the in-browser provider needs, and whether the model of `npm run models` is present in this app. */
export function InBrowserModelNotes({ modelId, onUse }: { modelId: string; onUse: (modelId: string) => void }) {
  const presence = useLocalTextModels();
  const chosen = findLocalInBrowserModel(modelId);
  const local = chosen ?? LOCAL_IN_BROWSER_MODELS[0]!;
  const present = presence?.get(local.modelId);
  const slow = 'On the CPU (wasm) expect about a token per second on a small machine, after a long first read of the prompt; WebGPU is much faster. Small models follow the search-query format loosely.';
  if (chosen) {
    return (
      <p className="hint" data-testid="in-browser-needs">
        {present === undefined && `Checking whether this app serves ${chosen.modelId}…`}
        {present === true && `${chosen.label}: present locally — served by this app from /models/${chosen.modelId}/ (${sizeOf(chosen)}, read once per load), runs offline in this browser. ${slow}`}
        {present === false && `${chosen.label}: ${howToGetTextModel(chosen)}`}
      </p>
    );
  }
  return (
    <p className="hint" data-testid="in-browser-needs">
      Needs a text-generation model exported to ONNX for transformers.js (config.json, tokenizer files and onnx/model*.onnx with past key values):{' '}
      {modelId.trim() || 'the model'} is downloaded from the Hugging Face hub on first use (a few hundred MB, network needed), then runs in this browser.{' '}
      {present === true && (
        <>
          Present locally, offline: {local.label}.{' '}
          <button type="button" className="link" onClick={() => onUse(local.modelId)}>
            Use {local.modelId}
          </button>{' '}
        </>
      )}
      {present === false && `Offline: \`${local.localSetup}\` exports ${local.label} to public/models/${local.modelId}/ (not present in this app now). `}
      {slow}
    </p>
  );
}

function sizeOf(model: LocalInBrowserModel): string {
  return `about ${formatBytes(model.approxBytes)}`;
}
