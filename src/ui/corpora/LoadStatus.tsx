import type { IngestIssue, IngestSummary } from '../../core/index.ts';
import { formatCount, formatDuration, plural } from '../shared/format.ts';
import { useLoadStore } from '../shared/load-store.ts';
import { CancelButton } from '../shared/CancelButton.tsx';

/** Progress of the running load (bar, documents per second, time left, cancel) or the report of the last one. */
export function LoadStatus() {
  const state = useLoadStore((s) => s.state);
  const cancel = useLoadStore((s) => s.cancel);
  const dismiss = useLoadStore((s) => s.dismiss);

  switch (state.status) {
    case 'idle':
      return null;
    case 'running':
    case 'cancelling': {
      const p = state.progress;
      const seconds = (performance.now() - state.startedAt) / 1000;
      const fraction = p && p.bytesTotal > 0 ? Math.min(1, p.bytesDone / p.bytesTotal) : 0;
      const rate = p && seconds > 0 ? p.documents / seconds : 0;
      const left = fraction > 0.01 ? (seconds * (1 - fraction)) / fraction : Infinity;
      return (
        <section className="panel" aria-label="Loading progress">
          <h3>Loading “{state.info.name}”</h3>
          <progress max={1} value={fraction} aria-label="Loading progress" />
          <p className="progress-line" data-testid="load-progress">
            {(fraction * 100).toFixed(0)}% · {formatCount(p?.documents ?? 0)} documents · {formatCount(Math.round(rate))} docs/s ·{' '}
            {p?.phase === 'saving' ? 'saving the index…' : `about ${formatDuration(left)} left`}
            {p?.issueCount ? ` · ${formatCount(p.issueCount)} problem(s)` : ''}
            {p?.file ? ` · ${p.file}` : ''}
          </p>
          <CancelButton cancelling={state.status === 'cancelling'} onCancel={cancel} />
          {state.status === 'cancelling' && <span className="hint"> Stopping and removing what was stored of it…</span>}
        </section>
      );
    }
    case 'cancelled':
      return (
        <section className="panel notice" role="status">
          Loading “{state.info.name}” was cancelled; nothing of it was kept. <button onClick={dismiss}>OK</button>
        </section>
      );
    case 'failed':
      return (
        <section className="panel error" role="alert">
          <p>
            Loading “{state.info.name}” failed: {state.message}
          </p>
          <p>Nothing of it was kept; corpora stored before are unchanged.</p>
          {state.details && <FileTable summary={state.details} />}
          {state.details && state.details.issueCount > 0 && <IssueTable issues={state.details.issues} total={state.details.issueCount} />}
          <button onClick={dismiss}>OK</button>
        </section>
      );
    case 'done':
      return <LoadReport name={state.result.corpus.name} summary={state.result.summary} seconds={state.seconds} onClose={dismiss} />;
  }
}

function LoadReport({ name, summary, seconds, onClose }: { name: string; summary: IngestSummary; seconds: number; onClose(): void }) {
  return (
    <section className="panel" aria-label="Load summary" data-testid="load-summary">
      <h3>Loaded “{name}”</h3>
      <p>
        {plural(summary.documents, 'document')}, {plural(summary.queries, 'query', 'queries')}, {plural(summary.qrels, 'relevance judgement')} in{' '}
        {seconds.toFixed(1)} s.{' '}
        {summary.issueCount > 0 ? `${formatCount(summary.issueCount)} line(s) or file(s) skipped — see below.` : 'Nothing was skipped.'}
      </p>
      <FileTable summary={summary} />
      {summary.issueCount > 0 && <IssueTable issues={summary.issues} total={summary.issueCount} />}
      <button onClick={onClose}>Close</button>
    </section>
  );
}

function FileTable({ summary }: { summary: IngestSummary }) {
  return (
    <table className="compact" aria-label="Files read">
      <thead>
        <tr>
          <th>file</th>
          <th>kind</th>
          <th>loaded</th>
          <th>skipped</th>
        </tr>
      </thead>
      <tbody>
        {summary.files.map((f) => (
          <tr key={f.path}>
            <td>{f.path}</td>
            <td>{f.kind}</td>
            <td>{formatCount(f.records)}</td>
            <td>{formatCount(f.skipped)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function IssueTable({ issues, total }: { issues: IngestIssue[]; total: number }) {
  return (
    <div className="issues">
      <h4>Skipped input{total > issues.length ? ` (first ${issues.length} of ${formatCount(total)})` : ''}</h4>
      <table className="compact" aria-label="Skipped input">
        <thead>
          <tr>
            <th>file</th>
            <th>line</th>
            <th>field</th>
            <th>reason</th>
          </tr>
        </thead>
        <tbody>
          {issues.map((issue, i) => (
            <tr key={i}>
              <td>{issue.file}</td>
              <td>{issue.line ?? ''}</td>
              <td>{issue.field ?? ''}</td>
              <td>{issue.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
