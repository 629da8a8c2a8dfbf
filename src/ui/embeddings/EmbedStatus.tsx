import { useEffect, useState } from 'react';
import { describeEmbeddingModel } from '../../core/index.ts';
import { formatBytes, formatCount, formatDuration } from '../shared/format.ts';
import { answerEmbedEstimate, useEmbedJob, type FileProgress } from './embed-store.ts';
import type { EmbedEstimate } from '../../workers/embed-worker-api.ts';
import { isActive } from '../shared/job-store.ts';
import { CancelButton } from '../shared/CancelButton.tsx';

/** Progress of the embedding job (model files, then documents), or how it ended. */
export function EmbedStatus() {
  const state = useEmbedJob((s) => s.state);
  const cancel = useEmbedJob((s) => s.cancel);
  const dismiss = useEmbedJob((s) => s.dismiss);
  const [, tick] = useState(0);
  const active = isActive(state);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => tick((n) => n + 1), 500);
    return () => clearInterval(timer);
  }, [active]);

  switch (state.status) {
    case 'idle':
      return null;
    case 'running':
    case 'cancelling': {
      const cancelling = state.status === 'cancelling';
      const { files, started, progress: p, measuring, estimate } = state.progress;
      if (!started) {
        return (
          <section className="panel" aria-label="Embedding progress">
            <h3>
              {estimate?.asking ? `Embed with ${state.info.modelId}?` : measuring ? `Measuring ${state.info.modelId}…` : `Loading ${state.info.modelId}…`}
            </h3>
            {measuring !== null && <p data-testid="embed-measuring">Timing the model on the first {measuring} documents (nothing is stored yet)…</p>}
            {estimate?.asking ? (
              <>
                <EstimateLine estimate={estimate} />
                <FasterRoutes />
                <div className="row">
                  <button className="primary" onClick={() => answerEmbedEstimate(true)} disabled={cancelling}>
                    Embed all {formatCount(estimate.remaining)} documents
                  </button>
                  <button onClick={() => answerEmbedEstimate(false)} disabled={cancelling}>
                    Not now
                  </button>
                </div>
              </>
            ) : (
              <>
                <FileList files={files} />
                <CancelButton cancelling={cancelling} onCancel={cancel} />
              </>
            )}
          </section>
        );
      }
      const total = started.set.totalRows;
      const done = p?.done ?? started.resumedAt;
      return (
        <section className="panel" aria-label="Embedding progress">
          <h3>
            Embedding with {started.set.model.modelId} on {started.device}
            {started.resumedAt > 0 ? ` — resumed at ${formatCount(started.resumedAt)}` : ''}
          </h3>
          <details>
            <summary>Model files</summary>
            <FileList files={files} />
          </details>
          {estimate && <EstimateLine estimate={estimate} />}
          <progress max={Math.max(1, total)} value={done} aria-label="Embedding progress" />
          <p className="progress-line" data-testid="embed-progress">
            {formatCount(done)} of {formatCount(total)} documents · {p ? `${p.docsPerSecond.toFixed(1)} docs/s` : 'starting…'}
            {p && p.done < total ? ` · about ${formatDuration(p.secondsLeft)} left` : ''}
          </p>
          <CancelButton cancelling={cancelling} onCancel={cancel} />
          <span className="hint">
            {cancelling
              ? ' Stopping after the batch in progress; what is embedded is kept.'
              : ' What is embedded is kept: cancelling, or closing the tab, loses at most the chunk in progress.'}
          </span>
        </section>
      );
    }
    case 'done': {
      const { set, resumedAt, device } = state.result;
      const embedded = set.rowsDone - resumedAt;
      return (
        <section className="panel" role="status" data-testid="embed-summary">
          <p>
            Embedded {formatCount(set.rowsDone)} documents with {describeEmbeddingModel(set.model)} on {device}
            {resumedAt > 0 ? ` (${formatCount(embedded)} in this session, resumed at ${formatCount(resumedAt)})` : ''} in{' '}
            {state.seconds.toFixed(1)} s. {formatBytes(set.bytes)} of vectors stored.
          </p>
          <button onClick={dismiss}>OK</button>
        </section>
      );
    }
    case 'cancelled':
      return (
        <section className="panel notice" role="status">
          {state.progress.started
            ? `Embedding with ${state.info.modelId} was cancelled. What was embedded is kept; resume it from the list below. `
            : `Embedding with ${state.info.modelId} was not started; nothing was stored. `}
          <button onClick={dismiss}>OK</button>
        </section>
      );
    case 'failed':
      return (
        <section className="panel error" role="alert" data-testid="embed-error">
          <p>
            Embedding with {state.info.modelId} failed: {state.message}
          </p>
          <p>Vectors stored before are unchanged, and BM25 search works as before.</p>
          <button onClick={dismiss}>OK</button>
        </section>
      );
  }
}

/** The measured speed and what it means for the whole corpus. */
function EstimateLine({ estimate }: { estimate: EmbedEstimate }) {
  return (
    <p data-testid="embed-estimate">
      Measured {estimate.docsPerSecond.toFixed(1)} docs/s on the first {formatCount(estimate.sampled)} documents in this tab: about{' '}
      {formatDuration(estimate.secondsLeft)} for {formatCount(estimate.remaining)} documents.
    </p>
  );
}

/** The routes to dense vectors that do not embed in this tab. */
function FasterRoutes() {
  return (
    <div className="hint" data-testid="faster-routes">
      Faster routes to the same vectors:
      <ul>
        <li>
          <code>dsw serve --dataset &lt;folder&gt; --model &lt;model folder&gt;</code> embeds in Node, outside the browser; connect to it
          from Corpora → Connect to a workbench server.
        </li>
        <li>
          Import vectors made elsewhere (<code>dsw embed --dataset &lt;folder&gt; --model &lt;model&gt; --out vectors.npy</code>, a{' '}
          <code>dsw --vector-cache</code> folder, a sentence-transformers <code>.npy</code>) in the Import vectors panel below.
        </li>
        <li>A smaller model, or q8 weights where offered (measured ≥ 0.99 cosine to fp32).</li>
      </ul>
    </div>
  );
}

function FileList({ files }: { files: Record<string, FileProgress> }) {
  const entries = Object.entries(files);
  if (entries.length === 0) return <p className="hint">Looking for the model files…</p>;
  return (
    <table className="compact" aria-label="Model files">
      <tbody>
        {entries.map(([file, f]) => (
          <tr key={file}>
            <td>{file}</td>
            <td>
              <progress max={1} value={f.done ? 1 : f.total > 0 ? f.loaded / f.total : 0} aria-label={`Loading ${file}`} />
            </td>
            <td>{f.done ? 'done' : f.total > 0 ? `${formatBytes(f.loaded)} of ${formatBytes(f.total)}` : 'starting'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
