import { describeImportMark, describeRunPipeline, type RunRecord } from '../../core/index.ts';
import { runPoolText } from './RunsTable.tsx';
import { errorMessage, formatCount } from '../shared/format.ts';
import { useRun } from '../shared/runs.ts';
import { RunEnvironmentFacts } from '../shared/RunEnvironmentFacts.tsx';
import { useQueries } from '../shared/corpus-data.ts';

/** Everything saved with one run: configuration, versions, per-query metrics. */
export function RunDetails({ id, onClose }: { id: string; onClose: () => void }) {
  const run = useRun(id);
  if (run.isError) return <p className="error">Could not read the run: {errorMessage(run.error)}</p>;
  if (!run.data) return <p>Loading the run…</p>;
  return <RunDetailsView record={run.data} onClose={onClose} />;
}

function RunDetailsView({ record, onClose }: { record: RunRecord; onClose: () => void }) {
  const queries = useQueries(record.corpusId);
  const perQuery = record.metrics ? Object.entries(record.metrics.perQuery) : [];
  return (
    <section className="panel run-details" aria-label="Run details">
      <header className="row spread">
        <h2>{record.name}</h2>
        <button type="button" onClick={onClose}>
          Close details
        </button>
      </header>
      <dl className="facts">
        <div>
          <dt>Pipeline</dt>
          <dd>{describeRunPipeline(record.pipeline)}</dd>
        </div>
        <div>
          <dt>Corpus</dt>
          <dd>{record.corpusName}</dd>
        </div>
        <div>
          <dt>Made</dt>
          <dd>{new Date(record.createdAt).toLocaleString()}</dd>
        </div>
        {record.imported && (
          <div>
            <dt>Imported</dt>
            <dd>{describeImportMark(record.imported, (ms) => new Date(ms).toLocaleString())}</dd>
          </div>
        )}
        {runPoolText(record) && (
          <div>
            <dt>GQR candidate pool</dt>
            <dd data-testid="details-pool">{runPoolText(record)}</dd>
          </div>
        )}
        <div>
          <dt>Queries ranked</dt>
          <dd>
            {formatCount(record.rankings.length)} (k = {record.k})
            {record.elapsedMs !== null ? ` in ${(record.elapsedMs / 1000).toFixed(2)} s` : ''}
          </dd>
        </div>
        <div>
          <dt>Versions</dt>
          <dd>
            workbench {record.versions.workbench}
            {Object.entries(record.versions.models ?? {}).map(([model, version]) => `; ${model}: ${version}`)}
          </dd>
        </div>
        <RunEnvironmentFacts environment={record.environment} />
        {record.notes && (
          <div>
            <dt>Notes</dt>
            <dd className="pre">{record.notes}</dd>
          </div>
        )}
      </dl>
      <details>
        <summary>Configuration (JSON)</summary>
        <pre className="config-json" data-testid="run-config">
          {JSON.stringify({ pipeline: record.pipeline, config: record.config }, null, 2)}
        </pre>
      </details>
      {record.metrics ? (
        <details open>
          <summary>
            Per-query metrics ({formatCount(record.metrics.queryCount)} judged queries)
          </summary>
          <div className="table-scroll tall">
            <table className="compact" aria-label="Per-query metrics">
              <thead>
                <tr>
                  <th>Query</th>
                  <th>Text</th>
                  {record.measures.map((m) => (
                    <th key={m} className="num">
                      {m}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                <tr className="mean-row">
                  <td colSpan={2}>Mean</td>
                  {record.measures.map((m) => (
                    <td key={m} className="num">
                      {record.metrics!.aggregate[m]?.toFixed(4)}
                    </td>
                  ))}
                </tr>
                {perQuery.map(([queryId, values]) => (
                  <tr key={queryId}>
                    <td>{queryId}</td>
                    <td>{queries.data?.get(queryId)?.text ?? ''}</td>
                    {record.measures.map((m) => (
                      <td key={m} className="num">
                        {values[m]?.toFixed(4)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : (
        <p className="hint">This run has no metrics: the corpus has no relevance judgements.</p>
      )}
    </section>
  );
}
