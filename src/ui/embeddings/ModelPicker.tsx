import { useEffect, useState } from 'react';
import {
  DTYPE_FILES,
  EMBEDDING_MODEL_PRESETS,
  howToGetModel,
  HUGGING_FACE_HOST,
  NUMERIC_RULES,
  preferredServedPreset,
  presenceInServedFiles,
  type EmbeddingDtype,
} from '../../core/index.ts';
import { errorMessage, formatBytes } from '../shared/format.ts';
import { filesFromInput } from '../shared/picked-files.ts';
import { NumberField } from '../shared/NumberField.tsx';
import { modelFoldersKey } from '../services/query-keys.ts';
import { getEmbedWorker } from '../services/workers.ts';
import { useModelFolders } from '../shared/embeddings.ts';
import { queryClient } from '../services/query-client.ts';
import { useEmbedChoice } from './embed-store.ts';
import { useAppModelPresence, useServedModelFiles } from './use-app-model-presence.ts';

const OTHER = '';
const DTYPES: EmbeddingDtype[] = ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'bnb4', 'q4f16'];

/** Chooses the embedding model: a preset or any model id, where its files come from, and how it embeds. */
export function ModelPicker({ disabled }: { disabled: boolean }) {
  const choice = useEmbedChoice((s) => s.choice);
  const setChoice = useEmbedChoice((s) => s.setChoice);
  const chooseModel = useEmbedChoice((s) => s.chooseModel);
  const chooseFolder = useEmbedChoice((s) => s.chooseFolder);
  const served = useServedModelFiles();
  const best = served ? preferredServedPreset((modelId, dtype) => presenceInServedFiles(served, modelId, dtype).present) : undefined;
  useEffect(() => {
    // The best model this app serves, until the person picks one.
    if (best) useEmbedChoice.getState().preselect(best.preset.modelId, best.dtype);
  }, [best?.preset.modelId, best?.dtype]);
  const folders = useModelFolders();
  const [folderError, setFolderError] = useState<string | null>(null);
  const [keeping, setKeeping] = useState(false);
  const preset = EMBEDDING_MODEL_PRESETS.find((p) => p.modelId === choice.modelId);
  const presence = useAppModelPresence(choice.dtype);
  const inApp = (modelId: string) => presence?.get(modelId)?.present;

  const keepFolder = async (list: FileList | null) => {
    setFolderError(null);
    const files = filesFromInput(list);
    if (files.length === 0) return;
    setKeeping(true);
    try {
      const folder = await getEmbedWorker().storeModelFolder(files);
      await queryClient.invalidateQueries({ queryKey: modelFoldersKey });
      chooseFolder(folder.name, folder.files);
    } catch (error) {
      setFolderError(errorMessage(error));
    } finally {
      setKeeping(false);
    }
  };

  return (
    <fieldset className="model-picker" disabled={disabled}>
      <legend>Model</legend>
      <div className="row" role="radiogroup" aria-label="Model files from">
        {(
          [
            ['app', 'Served by this app (offline)'],
            ['folder', 'A folder on this computer (offline)'],
            ['remote', 'Download from a model host'],
          ] as const
        ).map(([location, label]) => (
          <label key={location}>
            <input
              type="radio"
              name="model-location"
              checked={choice.location === location}
              onChange={() => {
                setChoice({ location });
                if (location === 'folder' && folders.data?.[0]) chooseFolder(folders.data[0].name, folders.data[0].files);
                if (location !== 'folder' && !EMBEDDING_MODEL_PRESETS.some((p) => p.modelId === choice.modelId)) chooseModel(best?.preset.modelId ?? 'tiny-bert');
              }}
            />{' '}
            {label}
          </label>
        ))}
      </div>

      {choice.location === 'folder' ? (
        <div className="row">
          <label className="button">
            {keeping ? 'Reading the folder…' : 'Choose a model folder…'}
            <input
              type="file"
              hidden
              aria-label="Choose a model folder"
              ref={(input) => input?.setAttribute('webkitdirectory', '')}
              onChange={(e) => void keepFolder(e.target.files)}
            />
          </label>
          {folders.data && folders.data.length > 0 && (
            <label>
              Kept folder{' '}
              <select
                aria-label="Kept model folder"
                value={choice.modelId}
                onChange={(e) => {
                  const folder = folders.data?.find((f) => f.name === e.target.value);
                  if (folder) chooseFolder(folder.name, folder.files);
                }}
              >
                {!folders.data.some((f) => f.name === choice.modelId) && <option value={choice.modelId}>—</option>}
                {folders.data.map((f) => (
                  <option key={f.name} value={f.name}>
                    {f.name} ({formatBytes(f.bytes)})
                  </option>
                ))}
              </select>
            </label>
          )}
          <span className="hint">The folder holds config.json, tokenizer.json and onnx/; it is kept in this browser and works offline.</span>
        </div>
      ) : (
        <div className="row">
          <label>
            Model{' '}
            <select aria-label="Model" value={preset ? preset.modelId : OTHER} onChange={(e) => chooseModel(e.target.value || '')}>
              {EMBEDDING_MODEL_PRESETS.map((p) => (
                <option key={p.modelId} value={p.modelId}>
                  {p.label} — {p.modelId}
                  {choice.location === 'app' && inApp(p.modelId) !== undefined && (inApp(p.modelId) ? ' (in this app)' : ' (not in this app)')}
                </option>
              ))}
              <option value={OTHER}>Other model id…</option>
            </select>
          </label>
          {!preset && (
            <label>
              Model id{' '}
              <input type="text" aria-label="Model id" placeholder="org/model-name" value={choice.modelId} onChange={(e) => chooseModel(e.target.value)} />
            </label>
          )}
          {choice.location === 'remote' && (
            <label>
              Model host{' '}
              <input type="url" aria-label="Model host URL" placeholder={HUGGING_FACE_HOST} value={choice.host} onChange={(e) => setChoice({ host: e.target.value })} />
            </label>
          )}
        </div>
      )}
      {folderError && (
        <p className="error" role="alert">
          {folderError}
        </p>
      )}
      <p className="hint" data-testid="model-location-hint">
        {choice.location === 'app' && `Files are read from this app at /models/${choice.modelId || '…'}/ (${DTYPE_FILES[choice.dtype]} and the tokenizer).`}
        {choice.location === 'app' && preset && inApp(preset.modelId) === true && ' They are present.'}
        {choice.location === 'app' && preset && inApp(preset.modelId) === false && ` Not present in this app (${presence!.get(preset.modelId)!.missingFiles.join(', ')} missing). ${howToGetModel(preset.modelId)}`}
        {choice.location === 'remote' &&
          `Files are downloaded from ${choice.host.trim() || HUGGING_FACE_HOST}${choice.modelId || '…'} and cached by the browser; this needs the network.`}
        {choice.location === 'folder' && `Weights file used: ${DTYPE_FILES[choice.dtype]}.`}
        {choice.location === 'folder' &&
          folders.data?.some((f) => f.name === choice.modelId && !f.files.includes(DTYPE_FILES[choice.dtype])) &&
          ' This folder does not hold it: choose other weights.'}
      </p>
      {preset?.testModel && (
        <p className="notice" data-testid="test-model-warning">
          {preset.modelId} is a generated test model with random weights: its vectors carry no meaning, so dense search and fusion with it
          score far below BM25. For real dense retrieval choose all-MiniLM-L6-v2 or all-mpnet-base-v2 (`npm run models` puts them in this
          app), or import vectors made elsewhere.
        </p>
      )}

      <div className="row">
        <label>
          Weights{' '}
          <select aria-label="Weights (dtype)" value={choice.dtype} onChange={(e) => setChoice({ dtype: e.target.value as EmbeddingDtype })}>
            {DTYPES.map((d) => (
              <option key={d} value={d}>
                {d}
                {d === preset?.defaultDtype && d !== 'fp32' ? ' (default: measured ≥ 0.99 cosine to fp32, faster)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          Pooling{' '}
          <select aria-label="Pooling" value={choice.pooling} onChange={(e) => setChoice({ pooling: e.target.value as 'mean' | 'cls' })}>
            <option value="mean">mean</option>
            <option value="cls">CLS</option>
          </select>
        </label>
        <label>
          Query prefix <input type="text" aria-label="Query prefix" value={choice.queryPrefix} onChange={(e) => setChoice({ queryPrefix: e.target.value })} />
        </label>
        <label>
          Passage prefix{' '}
          <input type="text" aria-label="Passage prefix" value={choice.passagePrefix} onChange={(e) => setChoice({ passagePrefix: e.target.value })} />
        </label>
      </div>
      <div className="row">
        <label>
          Batch size{' '}
          <NumberField rule={NUMERIC_RULES.embeddingBatchSize} aria-label="Batch size" value={choice.batchSize} onChange={(batchSize) => setChoice({ batchSize })} />
        </label>
        <label>
          Ask first when it would take longer than{' '}
          <NumberField
            rule={NUMERIC_RULES.embedAskAboveSeconds}
            aria-label="Ask first above seconds"
            value={choice.askAboveSeconds}
            onChange={(askAboveSeconds) => setChoice({ askAboveSeconds })}
          />{' '}
          s
        </label>
        <label title="One vector per token as well, for late-interaction MaxSim (GQR's multi scorer). Needs much more storage.">
          <input type="checkbox" checked={choice.tokens} onChange={(e) => setChoice({ tokens: e.target.checked })} /> also store token-level vectors
          (MaxSim)
        </label>
      </div>
    </fieldset>
  );
}
