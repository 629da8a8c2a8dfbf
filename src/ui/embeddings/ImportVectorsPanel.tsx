import * as Comlink from 'comlink';
import { useState } from 'react';
import { describeEmbeddingModel } from '../../core/index.ts';
import { withAbortPort } from '../services/abort-port.ts';
import type { EmbedEvent, VectorImportReport } from '../../workers/embed-worker-api.ts';
import type { PickedFile } from '../../workers/corpus-worker-api.ts';
import { CancelButton } from '../shared/CancelButton.tsx';
import { createJobStore, isActive } from '../shared/job-store.ts';
import { formatCount } from '../shared/format.ts';
import { filesFromInput } from '../shared/picked-files.ts';
import { embeddingSetsKey, storageKey } from '../services/query-keys.ts';
import { queryClient } from '../services/query-client.ts';
import { getEmbedWorker } from '../services/workers.ts';
import { settingsOfChoice, useEmbedChoice } from './embed-store.ts';

/** The vector import of this page: loading the model, checking, storing. */
const useImportJob = createJobStore<{ corpusId: string; modelId: string }, string, VectorImportReport>({ cancelMessage: 'The import was cancelled' });

async function importVectors(corpusId: string, files: PickedFile[]): Promise<void> {
  const model = settingsOfChoice(useEmbedChoice.getState().choice);
  await useImportJob.getState().start({ corpusId, modelId: model.source.modelId }, 'Reading the files and loading the model…', async ({ signal, progress }) => {
    try {
      return await withAbortPort(signal, (port) =>
        getEmbedWorker().importVectors(
          { corpusId, model, files },
          Comlink.proxy((event: EmbedEvent) => event.kind === 'load' && event.progress.file && progress(`Loading ${event.progress.file}…`)),
          port && Comlink.transfer(port, [port]),
        ),
      );
    } finally {
      void queryClient.invalidateQueries({ queryKey: embeddingSetsKey(corpusId) });
      void queryClient.invalidateQueries({ queryKey: storageKey });
    }
  });
}

async function importFromServer(corpusId: string, server: string, token: string): Promise<void> {
  const model = settingsOfChoice(useEmbedChoice.getState().choice);
  await useImportJob.getState().start({ corpusId, modelId: model.source.modelId }, `Asking ${server} for its model and checking a sample…`, async ({ signal, progress }) => {
    try {
      return await withAbortPort(signal, (port) =>
        getEmbedWorker().importFromServer(
          { corpusId, model, server, ...(token.trim() ? { token: token.trim() } : {}) },
          Comlink.proxy((event: EmbedEvent) => {
            if (event.kind === 'load' && event.progress.file) progress(`Loading ${event.progress.file}…`);
            if (event.kind === 'progress') {
              const p = event.progress;
              progress(
                `Embedding on the server: ${formatCount(p.done)} of ${formatCount(p.total)} documents (${p.docsPerSecond.toFixed(1)} docs/s` +
                  `${Number.isFinite(p.secondsLeft) ? `, about ${Math.ceil(p.secondsLeft)} s left` : ''})`,
              );
            }
          }),
          port && Comlink.transfer(port, [port]),
        ),
      );
    } finally {
      void queryClient.invalidateQueries({ queryKey: embeddingSetsKey(corpusId) });
      void queryClient.invalidateQueries({ queryKey: storageKey });
    }
  });
}

/** Brings document vectors made elsewhere into the corpus as an embedding set of the model chosen above. */
export function ImportVectorsPanel({ corpusId, disabled }: { corpusId: string; disabled: boolean }) {
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [server, setServer] = useState('http://127.0.0.1:8790');
  const [token, setToken] = useState('');
  const state = useImportJob((s) => s.state);
  const cancel = useImportJob((s) => s.cancel);
  const dismiss = useImportJob((s) => s.dismiss);
  const modelId = useEmbedChoice((s) => s.choice.modelId);
  const running = isActive(state);

  return (
    <section className="panel" aria-label="Import vectors">
      <h2>Import vectors</h2>
      <p className="hint">
        Vectors made outside this tab, much faster than embedding here (Cranfield's 1,400 documents take minutes with <code>dsw embed</code>, not half an
        hour in a tab). Files: a <code>.safetensors</code> with one tensor of [documents, dimensions] (F32, F16, BF16 or F64) and its ids as a JSON
        array in the header's <code>__metadata__.ids</code> (or an ids file picked with it); a sentence-transformers <code>.npy</code> with its ids
        file (one id per line; without one, rows follow the corpus's order); a <code>.jsonl</code> of <code>{'{"id": …, "vector": […]}'}</code> lines;
        or a <code>dsw --vector-cache</code> folder. <code>dsw embed --dataset &lt;folder&gt; --model &lt;model&gt; --out vectors.safetensors</code>{' '}
        makes one. They are stored as the set of the model chosen above ({modelId || '…'}), which embeds the queries: ids and dimension are checked
        against the corpus, and a sample of documents re-embedded here must match to cosine 0.999, so choose the same weights (dtype), pooling and
        prefixes they were made with.
      </p>
      <div className="row">
        <label className="button">
          Choose vector files…
          <input type="file" multiple hidden aria-label="Choose vector files" disabled={running || disabled} onChange={(e) => setFiles(filesFromInput(e.target.files))} />
        </label>
        <label className="button">
          Choose a vector-cache folder…
          <input
            type="file"
            hidden
            aria-label="Choose a vector-cache folder"
            disabled={running || disabled}
            ref={(input) => input?.setAttribute('webkitdirectory', '')}
            onChange={(e) => setFiles(filesFromInput(e.target.files))}
          />
        </label>
        {files.length > 0 && <span className="meta">{files.map((f) => f.path).join(', ')}</span>}
        <button className="primary" disabled={running || disabled || files.length === 0 || !modelId.trim()} onClick={() => void importVectors(corpusId, files)}>
          Import
        </button>
      </div>
      <p className="hint">
        Or from a workbench server: <code>dsw serve --dataset &lt;folder&gt; --model &lt;model&gt; --allow-origin {typeof location === 'undefined' ? '<this page>' : location.origin}</code>{' '}
        embeds this corpus's documents with onnxruntime on every core of that machine, in batches; a sample is checked here first. Any dataset will do
        for <code>--dataset</code> (this corpus's texts are sent); the server's model must be the one chosen above.
      </p>
      <div className="row">
        <label>
          Server <input type="url" aria-label="Server address" value={server} onChange={(e) => setServer(e.target.value)} disabled={running} size={28} />
        </label>
        <label>
          Token <input type="password" aria-label="Server token" placeholder="if it has one" value={token} onChange={(e) => setToken(e.target.value)} disabled={running} size={14} />
        </label>
        <button disabled={running || disabled || !server.trim() || !modelId.trim()} onClick={() => void importFromServer(corpusId, server.trim(), token)}>
          Embed on the server
        </button>
      </div>
      {running && (
        <p role="status" data-testid="import-progress">
          {state.progress} <CancelButton cancelling={state.status === 'cancelling'} onCancel={cancel} />
        </p>
      )}
      {state.status === 'done' && (
        <div className="notice" role="status" data-testid="import-done">
          <p>
            Imported {formatCount(state.result.set.rowsDone)} vectors from {state.result.source} as {describeEmbeddingModel(state.result.set.model)}.
            Checked {state.result.checked.documents} documents re-embedded here: lowest cosine {state.result.checked.worstCosine.toFixed(4)}. Took {state.seconds.toFixed(1)} s.
            {state.result.issues.length > 0 ? ` ${formatCount(state.result.issues.length)} line(s) or id(s) skipped:` : ''}
          </p>
          {state.result.issues.length > 0 && (
            <ul className="issues">
              {state.result.issues.slice(0, 20).map((issue, i) => (
                <li key={i}>
                  {issue.file}
                  {issue.line ? ` line ${issue.line}` : ''}
                  {issue.field ? ` (${issue.field})` : ''}: {issue.reason}
                </li>
              ))}
            </ul>
          )}
          <button onClick={dismiss}>OK</button>
        </div>
      )}
      {state.status === 'failed' && (
        <div className="error" role="alert" data-testid="import-error">
          <p>Import failed: {state.message}</p>
          <button onClick={dismiss}>OK</button>
        </div>
      )}
      {state.status === 'cancelled' && (
        <p role="status">
          The import was cancelled; nothing was stored. <button onClick={dismiss}>OK</button>
        </p>
      )}
    </section>
  );
}
