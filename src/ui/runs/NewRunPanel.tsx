import { useState } from 'react';
import { describePipeline, type CorpusRecord, type PipelineSpec } from '../../core/index.ts';
import { formatCount, formatDuration } from '../shared/format.ts';
import { PIPELINE_KINDS, PipelineForm } from '../shared/pipeline-form.tsx';
import { useRunJobStore } from './run-job-store.ts';
import { NumberField } from '../shared/NumberField.tsx';
import { useNow } from '../shared/use-now.ts';

const DEFAULT_K = 1000;

/** Configures a pipeline and runs the corpus's query set through it; the run is scored and saved. */
export function NewRunPanel({ corpus, scored, measures }: { corpus: CorpusRecord; scored: boolean; measures: string[] }) {
  const [spec, setSpec] = useState<PipelineSpec>(() => PIPELINE_KINDS[0]!.initial());
  const [k, setK] = useState(DEFAULT_K);
  const [name, setName] = useState('');
  const { state, start, cancel } = useRunJobStore();
  const busy = state.status === 'running' || state.status === 'saving';
  const suggested = describePipeline(spec);

  return (
    <section className="panel" aria-label="New run">
      <h2>New run</h2>
      <form
        className="new-run"
        onSubmit={(e) => {
          e.preventDefault();
          void start({ corpus, spec, k, name: name.trim() || suggested, measures });
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
  const now = useNow(state.status === 'running');
  switch (state.status) {
    case 'idle':
      return null;
    case 'running': {
      const seconds = (now - state.startedAt) / 1000;
      const left = state.done > 0 ? (seconds / state.done) * (state.total - state.done) : NaN;
      return (
        <div className="run-progress" data-testid="run-progress">
          <p>
            Running “{state.name}”{state.corpusId !== corpusId ? ' (on another corpus)' : ''}: {formatCount(state.done)} / {formatCount(state.total)} queries
            {state.done > 0 ? ` · about ${formatDuration(left)} left` : ''}
          </p>
          <progress max={state.total || 1} value={state.done} aria-label="Run progress" />
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      );
    }
    case 'saving':
      return <p data-testid="run-progress">Scoring and saving “{state.name}”…</p>;
    case 'done': {
      const { record } = state;
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
      return <p role="status">The run “{state.name}” was cancelled; nothing was saved.</p>;
    case 'failed':
      return (
        <p className="error" role="alert">
          The run “{state.name}” failed: {state.message}
        </p>
      );
  }
}
