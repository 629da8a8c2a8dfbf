import { useState } from 'react';
import type { CorpusRecord } from '../../core/index.ts';
import { errorMessage, formatBytes, formatCount } from '../shared/format.ts';
import { useAppStore } from '../shared/app-store.ts';
import { useCorpora, useDeleteCorpus, useRenameCorpus } from '../shared/corpora.ts';
import { useLoadStore } from '../shared/load-store.ts';
import { isActive } from '../shared/job-store.ts';
import { IssueTable } from './LoadStatus.tsx';
import { loadSampleCorpus } from './sample-corpus.ts';
import { exportSnapshot } from './SnapshotPanel.tsx';

/** The stored corpora, with rename, delete and their load reports. */
export function CorpusList() {
  const corpora = useCorpora();
  return (
    <section className="panel" aria-labelledby="corpora-heading">
      <h2 id="corpora-heading">Stored corpora</h2>
      {corpora.isPending && <p>Reading storage…</p>}
      {corpora.isError && <p className="error">Could not read the stored corpora: {errorMessage(corpora.error)}</p>}
      {corpora.data?.length === 0 && <FirstRunOffer />}
      <ul className="corpus-list">
        {corpora.data?.map((c) => <CorpusItem key={c.id} corpus={c} />)}
      </ul>
    </section>
  );
}

function FirstRunOffer() {
  const running = useLoadStore((s) => isActive(s.state));
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="first-run">
      <p>No corpus yet. Load your own above, or start with the bundled sample: the Meridian Coast, 168 short passages with 32 search queries and 22 multi-hop questions with gold answers — enough to try BM25, dense retrieval, GQR and the Hybrid Deep Searcher offline.</p>
      <button className="primary" disabled={running} onClick={() => loadSampleCorpus().catch((e) => setError(errorMessage(e)))}>
        Start with the sample corpus
      </button>
      {error && <p className="error">{error}</p>}
    </div>
  );
}

function CorpusItem({ corpus }: { corpus: CorpusRecord }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(corpus.name);
  const [showIssues, setShowIssues] = useState(false);
  const rename = useRenameCorpus();
  const remove = useDeleteCorpus();
  const { corpusId, setCorpusId, setPage } = useAppStore();
  const a = corpus.analyzer;
  return (
    <li className={corpusId === corpus.id ? 'selected' : ''} data-testid="corpus-item">
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            rename.mutate({ id: corpus.id, name }, { onSuccess: () => setEditing(false) });
          }}
        >
          <input value={name} onChange={(e) => setName(e.target.value)} aria-label="New name" autoFocus />
          <button type="submit">Save</button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <strong className="corpus-name">{corpus.name}</strong>
      )}
      <span className="meta">
        {formatCount(corpus.documentCount)} documents · {formatCount(corpus.queryCount)} queries · {formatCount(corpus.qrelCount)} qrels
        {corpus.questionCount > 0 ? ` · ${formatCount(corpus.questionCount)} questions with answers` : ''} ·{' '}
        {corpus.remote ? `served by ${corpus.remote.server} (corpus “${corpus.remote.corpusId}”)` : formatBytes(corpus.bytes)} ·
        tokenizer: {a.lowercase ? 'lower-case' : 'case kept'}, {a.stopWords === 'english' ? 'stop words' : 'no stop list'},{' '}
        {a.stemming === 'porter' ? 'Porter' : 'no stemming'}
      </span>
      <span className="row">
        <button
          onClick={() => {
            setCorpusId(corpus.id);
            setPage('search');
          }}
        >
          Search
        </button>
        <button onClick={() => setEditing(true)}>Rename</button>
        <button onClick={() => void exportSnapshot(corpus)} title="Download documents, queries, qrels, BM25 index and embedding sets as one file">
          Export snapshot
        </button>
        <button
          onClick={() => {
            if (confirm(`Delete “${corpus.name}” and everything stored for it?`)) remove.mutate(corpus.id);
          }}
        >
          Delete
        </button>
        {corpus.issueCount > 0 && <button onClick={() => setShowIssues(!showIssues)}>{formatCount(corpus.issueCount)} skipped</button>}
      </span>
      {(rename.error || remove.error) && <p className="error">{errorMessage(rename.error ?? remove.error)}</p>}
      {showIssues && <IssueTable issues={corpus.issues} total={corpus.issueCount} />}
    </li>
  );
}
