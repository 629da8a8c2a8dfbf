import { useCallback, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Analyzer, highlightSegments, isComplete, NUMERIC_RULES, type PipelineSpec } from '../../core/index.ts';
import type { SearchHit } from '../../workers/retrieval-worker-api.ts';
import { errorMessage } from '../shared/format.ts';
import { Highlighted } from '../shared/Highlighted.tsx';
import { useAppStore } from '../shared/app-store.ts';
import { useCorpora } from '../shared/corpora.ts';
import { getRetrievalWorker } from '../services/workers.ts';
import { Bm25Settings } from '../shared/Bm25Settings.tsx';
import { CorpusPicker } from '../shared/CorpusPicker.tsx';
import { DocumentViewer } from '../shared/DocumentViewer.tsx';
import { DenseForm, FusionForm } from '../shared/pipeline-forms.tsx';
import { usePipelineStore, type SearchKind } from '../shared/pipeline-store.ts';
import { NoCorpusYet } from '../shared/NoCorpusYet.tsx';
import { NumberField } from '../shared/NumberField.tsx';

const KINDS: ReadonlyArray<[SearchKind, string]> = [
  ['bm25', 'BM25'],
  ['dense', 'Dense'],
  ['rrf', 'Hybrid: RRF'],
  ['cc', 'Hybrid: convex combination'],
];

const SNIPPET_CHARS = 320;

export function SearchPage() {
  const { corpusId, bm25 } = useAppStore();
  const corpora = useCorpora();
  const corpus = corpora.data?.find((c) => c.id === corpusId);
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const [topK, setTopK] = useState(10);
  const [open, setOpen] = useState<SearchHit | null>(null);
  const analyzer = useMemo(() => (corpus ? new Analyzer(corpus.analyzer) : null), [corpus]);
  const pipelines = usePipelineStore();
  const setSpec = useCallback((next: PipelineSpec) => usePipelineStore.getState().setSpec(next), []);
  const spec: PipelineSpec = pipelines.kind === 'bm25' ? { kind: 'bm25', params: bm25 } : pipelines[pipelines.kind];
  const runnable = isComplete(spec);

  const results = useQuery({
    queryKey: ['search', corpusId, query, topK, spec],
    queryFn: () => getRetrievalWorker().search(corpusId!, spec, query, topK),
    enabled: !!corpusId && query.trim() !== '' && runnable,
    placeholderData: (previous) => previous,
  });

  if (corpora.data && corpora.data.length === 0) {
    return <NoCorpusYet action="search" />;
  }

  return (
    <section className="panel" aria-label="Search">
      <form
        className="search-form"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(draft);
        }}
      >
        <CorpusPicker />
        <input type="search" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="Search query" aria-label="Query" autoFocus />
        <label>
          top k <NumberField rule={NUMERIC_RULES.topK} value={topK} aria-label="Top k" onChange={setTopK} />
        </label>
        <button type="submit" className="primary">
          Search
        </button>
      </form>
      <div className="row pipeline-choice">
        <label>
          Pipeline{' '}
          <select aria-label="Pipeline" value={pipelines.kind} onChange={(e) => pipelines.setKind(e.target.value as SearchKind)}>
            {KINDS.map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {spec.kind === 'bm25' && <Bm25Settings />}
      {spec.kind === 'dense' && corpusId && <DenseForm spec={spec} onChange={setSpec} corpusId={corpusId} />}
      {(spec.kind === 'rrf' || spec.kind === 'cc') && corpusId && <FusionForm spec={spec} onChange={setSpec} corpusId={corpusId} />}
      {results.isError && <p className="error" role="alert">Search failed: {errorMessage(results.error)}</p>}
      {results.data && query.trim() !== '' && (
        <>
          <p className="meta" data-testid="search-stats">
            {results.data.hits.length} result(s) in {results.data.elapsedMs.toFixed(1)} ms
            {results.data.loaded.length > 0 ? ` · ${results.data.loaded.join(', ')} in ${results.data.loadMs.toFixed(0)} ms` : ''}
          </p>
          {results.data.models.length > 0 && (
            <p className="meta" data-testid="search-models">
              Embedding model: {results.data.models.join('; ')}
            </p>
          )}
          <ol className="results" aria-label="Results">
            {results.data.hits.map((hit) => (
              <li key={hit.id}>
                <button className="link" onClick={() => setOpen(hit)}>
                  {hit.document?.title || hit.id}
                </button>{' '}
                <span className="meta">
                  {hit.id} · score {hit.score.toFixed(4)}
                </span>
                {hit.document && analyzer && (
                  <p className="snippet">
                    <Highlighted segments={highlightSegments(snippet(hit.document.text), hit.terms, analyzer)} />
                  </p>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
      {open?.document && analyzer && <DocumentViewer document={open.document} terms={open.terms} analyzer={analyzer} onClose={() => setOpen(null)} />}
    </section>
  );
}

function snippet(text: string): string {
  return text.length <= SNIPPET_CHARS ? text : `${text.slice(0, SNIPPET_CHARS).replace(/\s+\S*$/, '')} …`;
}
