import { useState } from 'react';
import { describePipeline, type CorpusRecord, type PipelineSpec } from '../../core/index.ts';
import { formatCount, formatDuration } from '../shared/format.ts';
import { PipelineForm } from '../shared/pipeline-form.tsx';
import { useSearchSettings } from '../shared/search-settings.ts';
import { startRun, useRunJobStore } from './run-job-store.ts';
import { isActive } from '../shared/job-store.ts';
import { CancelButton } from '../shared/CancelButton.tsx';
import { NumberField } from '../shared/NumberField.tsx';
import { useNow } from '../shared/use-now.ts';

/** Configures a pipeline and runs the corpus's query set through it; the run is scored and saved. */
export function NewRunPanel({ corpus, scored, measures }: { corpus: CorpusRecord; scored: boolean; measures: string[] }) {
  const { spec, k } = useSearchSettings((s) => s.run);
  const setRun = useSearchSettings((s) => s.setRun);
  const setSpec = (next: PipelineSpec) => setRun({ spec: next });
  const setK = (next: number) => setRun({ k: next });
  const [name, setName] = useState('');
  const busy = useRunJobStore((s) => isActive(s.state));
  const cancel = useRunJobStore((s) => s.cancel);
  const suggested = describePipeline(spec);

  return (
    <section className="panel" aria-label="New run">
      <h2>New run</h2>
      <form
        className="new-run"
        onSubmit={(e) => {
          e.preventDefault();
          void startRun({ corpus, spec, k, name: name.trim() || suggested, measures });
        }}
      >
        <PipelineForm spec={spec} onChange={setSpec} corpusId={corpus.id} topK={k} />
        <div className="row">
          <label>
            k{' '}
            <NumberField integer min={1} max={10000} value={k} aria-label="Results per query (k)" onChange={setK} />
          </label>
          <label>
            Name <input type="text" value={name} placeholder={suggested} aria-label="Run name" onChange={(e) => setName(e.target.value)} />
          </label>
        </div>
        {!scored && <p className="hint">This corpus has no relevance judgements: the run will be saved without metrics.</p>}
        <div className="row">
          <button type="submit" className="primary" disabled={busy || corpus.queryCount === 0}>
            Run over {formatCount(corpus.queryCount)} queries
          </button>
          {corpus.queryCount === 0 && <span className="hint">This corpus has no queries.</span>}
        </div>
      </form>
      <RunJobStatus corpusId={corpus.id} onCancel={cancel} />
    </section>
  );
}

function RunJobStatus({ corpusId, onCancel }: { corpusId: string; onCancel: () => void }) {
  const state = useRunJobStore((s) => s.state);
  const now = useNow(isActive(state));
  switch (state.status) {
    case 'idle':
      return null;
    case 'running':
    case 'cancelling': {
      const { done, total, saving } = state.progress;
      const cancelling = state.status === 'cancelling';
      if (saving && !cancelling) return <p data-testid="run-progress">Scoring and saving “{state.info.name}”…</p>;
      const seconds = (now - state.startedAt) / 1000;
      const left = done > 0 ? (seconds / done) * (total - done) : NaN;
      return (
        <div className="run-progress" data-testid="run-progress">
          <p>
            Running “{state.info.name}”{state.info.corpusId !== corpusId ? ' (on another corpus)' : ''}: {formatCount(done)} / {formatCount(total)} queries
            {done > 0 && !cancelling ? ` · about ${formatDuration(left)} left` : ''}
          </p>
          <progress max={total || 1} value={done} aria-label="Run progress" />
          <CancelButton cancelling={cancelling} onCancel={onCancel} />
        </div>
      );
    }
    case 'done': {
      const record = state.result;
      if (record.corpusId !== corpusId) return null; // saved on another corpus: its own page says so
      const first = record.measures[0];
      return (
        <p className="notice" role="status" data-testid="run-done">
          Saved “{record.name}”: {formatCount(record.rankings.length)} queries in {((record.elapsedMs ?? 0) / 1000).toFixed(2)} s
          {record.metrics && first ? ` · ${first} ${record.metrics.aggregate[first]!.toFixed(4)}` : ' · not scored (no qrels)'}
        </p>
      );
    }
    case 'cancelled':
      return <p role="status">The run “{state.info.name}” was cancelled; nothing was saved.</p>;
    case 'failed':
      return (
        <p className="error" role="alert">
          The run “{state.info.name}” failed: {state.message}
        </p>
      );
  }
}
