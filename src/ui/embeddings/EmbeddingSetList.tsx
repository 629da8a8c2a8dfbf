import { describeEmbeddingModel, describeModelSource, type EmbeddingSetRecord } from '../../core/index.ts';
import { errorMessage, formatBytes, formatCount } from '../shared/format.ts';
import { useAppStore } from '../shared/app-store.ts';
import { useDeleteEmbeddingSet, useEmbeddingSets } from '../shared/embeddings.ts';
import { useSearchSettings } from '../shared/search-settings.ts';
import { resumeEmbedding, useEmbedJob } from './embed-store.ts';
import { isActive } from '../shared/job-store.ts';

/** The embedded versions of a corpus: progress, resume, search with, delete. */
export function EmbeddingSetList({ corpusId }: { corpusId: string }) {
  const sets = useEmbeddingSets(corpusId);
  const remove = useDeleteEmbeddingSet();
  const busy = useEmbedJob((s) => isActive(s.state));
  const resume = resumeEmbedding;
  const setPage = useAppStore((s) => s.setPage);
  const searchWith = useSearchSettings((s) => s.searchWithSet);

  return (
    <section className="panel" aria-labelledby="sets-heading">
      <h2 id="sets-heading">Embedded versions of this corpus</h2>
      {sets.isError && <p className="error">Could not read the stored vectors: {errorMessage(sets.error)}</p>}
      {remove.isError && <p className="error">Could not delete: {errorMessage(remove.error)}</p>}
      {sets.data?.length === 0 && <p className="hint">None yet. Choose a model above and embed the corpus.</p>}
      {sets.data && sets.data.length > 0 && (
        <table className="compact embedding-sets" aria-label="Embedding sets">
          <thead>
            <tr>
              <th>model</th>
              <th>documents</th>
              <th>stored</th>
              <th>from</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sets.data.map((set) => (
              <tr key={set.modelKey} data-testid="embedding-set">
                <td title={describeEmbeddingModel(set.model)}>
                  <strong>{set.model.modelId}</strong> <span className="meta">{summary(set)}</span>
                </td>
                <td>
                  {set.complete ? (
                    `${formatCount(set.rowsDone)} ✓`
                  ) : (
                    <>
                      <progress max={Math.max(1, set.totalRows)} value={set.rowsDone} aria-label="Embedded so far" /> {formatCount(set.rowsDone)} of{' '}
                      {formatCount(set.totalRows)}
                    </>
                  )}
                </td>
                <td>{formatBytes(set.bytes)}</td>
                <td>
                  {describeModelSource(set.source)} · {set.device}
                </td>
                <td>
                  {set.complete ? (
                    <button
                      onClick={() => {
                        searchWith(set.modelKey);
                        setPage('search');
                      }}
                    >
                      Search
                    </button>
                  ) : (
                    <button disabled={busy} onClick={() => void resume(set)}>
                      Resume
                    </button>
                  )}{' '}
                  <button
                    disabled={busy || remove.isPending}
                    onClick={() => {
                      if (confirm(`Delete the ${set.model.modelId} vectors of this corpus? The corpus itself is kept.`)) {
                        remove.mutate({ corpusId, modelKey: set.modelKey });
                      }
                    }}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function summary(set: EmbeddingSetRecord): string {
  const m = set.model;
  const prefixes = [m.prefixes.query && `query prefix “${m.prefixes.query}”`, m.prefixes.passage && `passage prefix “${m.prefixes.passage}”`].filter(Boolean);
  return [m.dtype, `${m.pooling} pooling`, `${m.dimensions} dims`, `≤ ${set.maxTokens} tokens`, set.tokens ? 'token-level too' : '', ...prefixes]
    .filter(Boolean)
    .join(' · ');
}

