import { useState } from 'react';
import { DEFAULT_MEASURES } from '../../core/index.ts';
import { errorMessage } from '../shared/format.ts';
import { useAppStore } from '../shared/app-store.ts';
import { useCorpora } from '../shared/corpora.ts';
import { useRuns } from '../shared/runs.ts';
import { CorpusPicker } from '../shared/CorpusPicker.tsx';
import { hasRelevant, useQrels } from '../shared/corpus-data.ts';
import { ImportRunPanel } from './ImportRunPanel.tsx';
import { MeasuresInput } from '../shared/MeasuresInput.tsx';
import { NewRunPanel } from './NewRunPanel.tsx';
import { RecipePanel } from './RecipePanel.tsx';
import { RunDetails } from './RunDetails.tsx';
import { RunsTable } from './RunsTable.tsx';
import '../shared/runs.css';
import { NoCorpusYet } from '../shared/NoCorpusYet.tsx';

/** Runs of a corpus's query set: make one, import one, see their metrics, rename, export, delete. */
export function RunsPage() {
  const { corpusId, setPage } = useAppStore();
  const corpora = useCorpora();
  const corpus = corpora.data?.find((c) => c.id === corpusId);
  const qrels = useQrels(corpus?.id ?? null);
  const runs = useRuns(corpus?.id ?? null);
  const [measures, setMeasures] = useState<string[]>([...DEFAULT_MEASURES]);
  const [selected, setSelected] = useState<string | null>(null);
  const scored = hasRelevant(qrels.data);

  if (corpora.data && corpora.data.length === 0) {
    return <NoCorpusYet action="run" />;
  }

  return (
    <>
      <section className="panel" aria-label="Runs settings">
        <div className="row">
          <CorpusPicker />
          <MeasuresInput value={measures} onChange={setMeasures} label="Measures" />
        </div>
        <p className="hint">The measures are scored for new and imported runs (trec_eval definitions); the Compare page can score any others.</p>
      </section>
      {corpus && <NewRunPanel corpus={corpus} scored={scored} measures={measures} />}
      {corpus && <ImportRunPanel corpus={corpus} qrels={qrels.data ?? null} measures={measures} />}
      {corpus && <RecipePanel corpus={corpus} />}
      {corpus && (
        <section className="panel" aria-label="Saved runs">
          <div className="row spread">
            <h2>Saved runs of “{corpus.name}”</h2>
            {(runs.data?.length ?? 0) >= 2 && (
              <button type="button" onClick={() => setPage('compare')}>
                Compare runs…
              </button>
            )}
          </div>
          {runs.isError && <p className="error">Could not list the runs: {errorMessage(runs.error)}</p>}
          {runs.data?.length === 0 && <p className="hint">No saved runs yet: run a pipeline or import a run above.</p>}
          {runs.data && runs.data.length > 0 && <RunsTable runs={runs.data} selectedId={selected} onSelect={setSelected} />}
        </section>
      )}
      {selected && runs.data?.some((r) => r.id === selected) && <RunDetails id={selected} onClose={() => setSelected(null)} />}
    </>
  );
}
