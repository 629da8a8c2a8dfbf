import { useEffect, useState } from 'react';
import { describeEmbeddingModel } from '../../core/index.ts';
import { formatBytes, formatCount, formatDuration } from '../shared/format.ts';
import { useEmbedStore, type FileProgress } from './embed-store.ts';

/** Progress of the embedding job (model files, then documents), or how it ended. */
export function EmbedStatus() {
  const state = useEmbedStore((s) => s.state);
  const cancel = useEmbedStore((s) => s.cancel);
  const dismiss = useEmbedStore((s) => s.dismiss);
  const [, tick] = useState(0);
  const active = state.status === 'loading' || state.status === 'running';
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => tick((n) => n + 1), 500);
    return () => clearInterval(timer);
  }, [active]);

  switch (state.status) {
    case 'idle':
      return null;
    case 'loading':
      return (
        <section className="panel" aria-label="Embedding progress">
          <h3>Loading {state.modelId}…</h3>
          <FileList files={state.files} />
          <button onClick={cancel}>Cancel</button>
        </section>
      );
    case 'running': {
      const p = state.progress;
      const total = state.set.totalRows;
      const done = p?.done ?? state.resumedAt;
      return (
        <section className="panel" aria-label="Embedding progress">
          <h3>
            Embedding with {state.set.model.modelId} on {state.device}
            {state.resumedAt > 0 ? ` — resumed at ${formatCount(state.resumedAt)}` : ''}
          </h3>
          <details>
            <summary>Model files</summary>
            <FileList files={state.files} />
          </details>
          <progress max={Math.max(1, total)} value={done} aria-label="Embedding progress" />
          <p className="progress-line" data-testid="embed-progress">
            {formatCount(done)} of {formatCount(total)} documents · {p ? `${p.docsPerSecond.toFixed(1)} docs/s` : 'starting…'}
            {p && p.done < total ? ` · about ${formatDuration(p.secondsLeft)} left` : ''}
          </p>
          <button onClick={cancel}>Cancel</button>
          <span className="hint"> What is embedded is kept: cancelling, or closing the tab, loses at most the chunk in progress.</span>
        </section>
      );
    }
    case 'done': {
      const { set } = state;
      const embedded = set.rowsDone - state.resumedAt;
      return (
        <section className="panel" role="status" data-testid="embed-summary">
          <p>
            Embedded {formatCount(set.rowsDone)} documents with {describeEmbeddingModel(set.model)} on {state.device}
            {state.resumedAt > 0 ? ` (${formatCount(embedded)} in this session, resumed at ${formatCount(state.resumedAt)})` : ''} in{' '}
            {state.seconds.toFixed(1)} s. {formatBytes(set.bytes)} of vectors stored.
          </p>
          <button onClick={dismiss}>OK</button>
        </section>
      );
    }
    case 'cancelled':
      return (
        <section className="panel notice" role="status">
          Embedding with {state.modelId} was cancelled. What was embedded is kept; resume it from the list below. <button onClick={dismiss}>OK</button>
        </section>
      );
    case 'failed':
      return (
        <section className="panel error" role="alert" data-testid="embed-error">
          <p>
            Embedding with {state.modelId} failed: {state.message}
          </p>
          <p>Vectors stored before are unchanged, and BM25 search works as before.</p>
          <button onClick={dismiss}>OK</button>
        </section>
      );
  }
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
