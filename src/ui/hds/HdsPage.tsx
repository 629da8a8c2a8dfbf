import { useEffect, useState } from 'react';
import { useCorpora } from '../shared/corpora.ts';
import { AskPanel } from './AskPanel.tsx';
import { BatchPanel } from './BatchPanel.tsx';
import { ModelSettings } from './ModelSettings.tsx';
import { useActiveHdsJob } from './run-state.ts';
import { SavedRuns } from './SavedRuns.tsx';
import { SearchSettings } from './SearchSettings.tsx';
import { useHdsSettings } from './settings-state.ts';
import './hds.css';
import { NoCorpusYet } from '../shared/NoCorpusYet.tsx';

type Tab = 'ask' | 'batch' | 'saved';
const TABS: ReadonlyArray<{ id: Tab; label: string }> = [
  { id: 'ask', label: 'Ask' },
  { id: 'batch', label: 'Batch' },
  { id: 'saved', label: 'Saved runs' },
];

/** The Hybrid Deep Searcher: a model, a retriever, one question live on a timeline, batches, saved runs. */
export function HdsPage() {
  const corpora = useCorpora();
  const { loaded, load } = useHdsSettings();
  const active = useActiveHdsJob();
  const [tab, setTab] = useState<Tab>('ask');
  useEffect(() => {
    void load();
  }, [load]);

  const noCorpus = corpora.data && corpora.data.length === 0;
  return (
    <>
      <header className="hds-intro">
        <h2>Hybrid Deep Searcher</h2>
        <p className="hint">
          An LLM plans searches over your corpus in turns, running several queries in parallel, and answers when it has enough evidence. Everything runs in this
          browser except the model, which is whichever server you choose in the settings below the question.
        </p>
      </header>
      <nav className="subtabs" aria-label="Deep search views">
        {TABS.map((t) => (
          <button key={t.id} type="button" className={t.id === tab ? 'tab active' : 'tab'} aria-pressed={t.id === tab} onClick={() => setTab(t.id)}>
            {t.label}
            {t.id === 'batch' && active === 'batch' ? ' (running)' : ''}
          </button>
        ))}
      </nav>
      {noCorpus && tab !== 'saved' ? (
        <NoCorpusYet action="search"> (the sample corpus has 22 multi-hop questions with answers).</NoCorpusYet>
      ) : (
        <>
          {tab === 'ask' && <AskPanel />}
          {tab === 'batch' && <BatchPanel />}
        </>
      )}
      {tab === 'saved' && <SavedRuns onOpened={(type) => setTab(type === 'question' ? 'ask' : 'batch')} />}
      {/* The question comes first; the settings follow it (they keep their values between visits). */}
      <section className="panel hds-settings" aria-label="Deep search settings">
        <h3>Model and search settings</h3>
        {loaded ? (
          <>
            <ModelSettings />
            <details open={tab !== 'saved'}>
              <summary>Search settings</summary>
              <SearchSettings showBaselines={tab === 'batch'} />
            </details>
          </>
        ) : (
          <p className="meta">Loading settings…</p>
        )}
      </section>
    </>
  );
}
