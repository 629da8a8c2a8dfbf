import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Analyzer, describeGqrPool, highlightSegments, isComplete, NUMERIC_RULES, type CorpusDocument, type GqrPipelineSpec, type PartExplanation, type PipelineSpec } from '../../core/index.ts';
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
import { searchSpecOf, useSearchSettings, type SearchKind } from '../shared/search-settings.ts';
import { NoCorpusYet } from '../shared/NoCorpusYet.tsx';
import { NumberField } from '../shared/NumberField.tsx';
import { GqrPipelineForm } from '../shared/GqrPipelineForm.tsx';
import { QueryInspector } from '../shared/QueryInspector.tsx';
import { useQrels, useQueries } from '../shared/corpus-data.ts';
import { getGqrPool } from '../services/gqr-pool.ts';
import { getCorpusStore } from '../services/stores.ts';
import { ClippedText } from '../shared/ClippedText.tsx';
import { pageHref } from '../shared/page-links.ts';
import { ResultExplanation } from './ResultExplanation.tsx';

const KINDS: ReadonlyArray<[SearchKind, string]> = [
  ['bm25', 'BM25'],
  ['dense', 'Dense'],
  ['rrf', 'Hybrid: RRF'],
  ['cc', 'Hybrid: convex combination'],
  ['gqr', 'GQR: dense refined toward BM25'],
];

import { useFieldProblems } from '../shared/field-problems.ts';
import { JudgementMark, QueryMetrics, QueryPicker } from './QueryOfTheSet.tsx';

const SNIPPET_CHARS = 320;

/** The search a shown list came from (the list stays on screen while the next search runs). */
interface ShownSearch {
  corpusId: string;
  spec: PipelineSpec;
  query: string;
  topK: number;
}

export function SearchPage() {
  const corpusId = useAppStore((s) => s.corpusId);
  const corpora = useCorpora();
  const corpus = corpora.data?.find((c) => c.id === corpusId);
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const queries = useQueries(corpusId ?? null);
  const qrels = useQrels(corpusId ?? null);
  // The query of the set a text is: the one picked, or the one with exactly its text.
  const [pickedId, setPickedId] = useState<string | null>(null);
  const setQueryOf = (text: string) => {
    const trimmed = text.trim();
    if (!queries.data || !trimmed) return undefined;
    const picked = pickedId ? queries.data.get(pickedId) : undefined;
    return picked?.text.trim() === trimmed ? picked : [...queries.data.values()].find((q) => q.text.trim() === trimmed);
  };
  const ofTheSet = setQueryOf(query);
  const [topK, setTopK] = useState(10);
  const fields = useFieldProblems();
  const [open, setOpen] = useState<SearchHit | null>(null);
  // The GQR refinement asked for from a result: the query, settings and k it was searched with, and the result.
  const [inspect, setInspect] = useState<(ShownSearch & { spec: GqrPipelineSpec; docId: string }) | null>(null);
  // The result whose "why" is open: the search it came from and its id.
  const [why, setWhy] = useState<(ShownSearch & { docId: string }) | null>(null);
  const analyzer = useMemo(() => (corpus ? new Analyzer(corpus.analyzer) : null), [corpus]);
  const pipelines = useSearchSettings();
  const setSpec = useCallback((next: PipelineSpec) => useSearchSettings.getState().setSpec(next), []);
  const spec = searchSpecOf(pipelines);
  const runnable = isComplete(spec);
  const results = useQuery({
    queryKey: ['search', corpusId, query, topK, spec],
    // The search a list came from travels with it: while another pipeline searches, the last list stays on screen,
    // and a "Why?" or an inspector opened on it must explain that list, not the pipeline still searching.
    queryFn: async () => ({ ...(await getRetrievalWorker().search(corpusId!, spec, query, topK)), searched: { corpusId: corpusId!, spec, query, topK } satisfies ShownSearch }),
    enabled: !!corpusId && query.trim() !== '' && runnable,
    placeholderData: (previous) => previous,
  });
  // A list of another corpus is not shown while the chosen one's is searched.
  const shown = results.data?.searched.corpusId === corpusId ? results.data.searched : undefined;
  // Measures and judgement marks are those of the list shown: its query and k, not those still being searched.
  const shownOfTheSet = shown && setQueryOf(shown.query);
  // An open "Why?" or inspector explains the ranking it was opened on: when another list replaces it, it closes.
  const shownKey = JSON.stringify(shown ?? null);
  useEffect(() => {
    setWhy(null);
    setInspect(null);
  }, [shownKey]);

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
        <QueryPicker
          queries={queries.data}
          value={ofTheSet?.id ?? null}
          onPick={(picked) => {
            setPickedId(picked?.id ?? null);
            if (picked) {
              setDraft(picked.text);
              setQuery(picked.text);
            }
          }}
        />
        <input type="search" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="Search query" aria-label="Query" autoFocus />
        <label>
          top k <NumberField rule={NUMERIC_RULES.topK} value={topK} aria-label="Top k" onChange={setTopK} onProblem={fields.report('top k')} />
        </label>
        <button type="submit" className="primary">
          Search
        </button>
      </form>
      {fields.blocked && (
        <p className="error" role="alert" data-testid="search-field-problems">
          {fields.summary}{shown ? ` (the results below are the last search's, top ${shown.topK})` : ''}.
        </p>
      )}
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
      {spec.kind === 'gqr' && corpusId && <GqrPipelineForm spec={spec} onChange={setSpec} corpusId={corpusId} topK={topK} />}
      {results.isError && <p className="error" role="alert">Search failed: {errorMessage(results.error)}</p>}
      {results.data && shown && query.trim() !== '' && (
        <>
          <p className="meta" data-testid="search-stats">
            {results.data.hits.length} result(s) in {results.data.elapsedMs.toFixed(1)} ms
            {results.data.loaded.length > 0 ? ` · ${results.data.loaded.join(', ')} in ${results.data.loadMs.toFixed(0)} ms` : ''}
            {shown.spec.kind === 'gqr' ? ` · GQR pool ${poolText(shown.topK, shown.spec)}` : ''}
          </p>
          {results.data.hits.length === 0 && shown.spec.kind === 'bm25' && (
            <p className="meta" data-testid="search-empty">
              No document contains any word of this query as the corpus’s analyzer reads it (stop words dropped; words stemmed if it stems).
            </p>
          )}
          {results.isPlaceholderData && (
            <p role="status" className="meta" data-testid="search-pending">
              Searching with the new settings… the list below is the last search’s.
            </p>
          )}
          {shownOfTheSet && <QueryMetrics queryId={shownOfTheSet.id} qrels={qrels.data} ranking={results.data.hits} topK={shown.topK} />}
          <QueryElsewhere queryId={ofTheSet?.id ?? null} text={query.trim()} />
          {results.data.models.length > 0 && (
            <p className="meta" data-testid="search-models">
              Embedding model: {results.data.models.join('; ')}
            </p>
          )}
          <ol className="results" aria-label="Results" aria-busy={results.isPlaceholderData}>
            {results.data.hits.map((hit) => (
              <li key={hit.id}>
                <button className="link" onClick={() => setOpen(hit)}>
                  <ClippedText text={hit.document?.title || hit.id} />
                </button>{' '}
                <span className="meta">
                  {hit.id} · score {hit.score.toFixed(4)}
                </span>{' '}
                {shownOfTheSet && <JudgementMark judgements={qrels.data?.get(shownOfTheSet.id) ?? new Map()} docId={hit.id} />}
                {/* A served corpus is scored by its server, which does not explain its scores. */}
                {!corpus?.remote && (
                  <>
                    {' '}
                    <button
                      type="button"
                      className="link"
                      aria-expanded={why?.docId === hit.id}
                      aria-label={`Why ${hit.id} ranks here`}
                      onClick={() => setWhy(why?.docId === hit.id ? null : { ...shown, docId: hit.id })}
                      title="Per-term BM25 contributions, the dense score and the fusion or GQR arithmetic behind this score"
                    >
                      Why?
                    </button>
                  </>
                )}
                {shown.spec.kind === 'gqr' && (
                  <>
                    {!corpus?.remote && <span className="meta"> · </span>}
                    <button type="button" className="link" onClick={() => setInspect({ ...shown, spec: shown.spec as GqrPipelineSpec, docId: hit.id })} title="How GQR refined the query and moved this result">
                      Inspect refinement
                    </button>
                  </>
                )}
                {hit.document && analyzer && (
                  <p className="snippet">
                    <Highlighted segments={highlightSegments(snippet(hit.document.text), hit.terms, analyzer)} />
                  </p>
                )}
                {why?.docId === hit.id && <WhyBox target={why} shownScore={hit.score} onClose={() => setWhy(null)} />}
                {inspect?.docId === hit.id && <SearchInspector target={inspect} onClose={() => setInspect(null)} />}
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

function poolText(topK: number, spec: GqrPipelineSpec): string {
  try {
    return describeGqrPool(topK, spec.config);
  } catch (error) {
    return errorMessage(error);
  }
}

/** The GQR inspector for a searched text, opened from one of its results (the trace is computed by the GQR worker). */
function SearchInspector({ target, onClose }: { target: ShownSearch & { spec: GqrPipelineSpec; docId: string }; onClose: () => void }) {
  const { corpusId } = target;
  const queries = useQueries(corpusId);
  const qrels = useQrels(corpusId);
  const inspection = useQuery({
    queryKey: ['search-gqr-inspect', corpusId, target.spec, target.query, target.topK],
    staleTime: Infinity,
    queryFn: async () => {
      const result = await getGqrPool().inspect(corpusId, target.spec, target.query, target.topK);
      const ids = [...new Set(result.trace.pool)];
      const docs = await (await getCorpusStore()).getDocuments(corpusId, ids);
      const documents = new Map<string, CorpusDocument>();
      docs.forEach((d, i) => d && documents.set(ids[i]!, d));
      return { result, documents };
    },
  });
  // A typed text that is a stored query of the corpus gets its judgements marked in the pool.
  const storedQuery = queries.data ? [...queries.data.values()].find((q) => q.text.trim() === target.query.trim()) : undefined;
  const judgements = storedQuery ? qrels.data?.get(storedQuery.id) : undefined;
  const rank = inspection.data ? inspection.data.result.results.findIndex((d) => d.id === target.docId) : -1;
  const heading = `How GQR refined “${target.query}”${rank >= 0 ? ` — ${target.docId} is result ${rank + 1}` : ''}`;
  const box = useRef<HTMLDivElement>(null);
  // Opened inside the clicked result: bring that result (and the inspector under it) into view.
  // In a block: Chromium's scrollIntoView returns a promise, which React would take for the effect's cleanup.
  useEffect(() => {
    void (box.current?.closest('li') ?? box.current)?.scrollIntoView({ block: 'start' });
  }, [target]);
  return (
    <div className="search-inspector" ref={box}>
      <div className="row spread">
        <span />
        <button type="button" onClick={onClose}>
          Close the inspector
        </button>
      </div>
      {inspection.isError && (
        <p className="error" role="alert">
          The inspector failed: {errorMessage(inspection.error)}
        </p>
      )}
      {!inspection.data && !inspection.isError && <p role="status">Inspecting “{target.query}”…</p>}
      {inspection.data && <QueryInspector inspection={inspection.data.result} documents={inspection.data.documents} judgements={judgements} heading={heading} />}
    </div>
  );
}

/** Why one result ranked where it did, computed by the retrieval worker over the same pipeline. */
function WhyBox({ target, shownScore, onClose }: { target: ShownSearch & { docId: string }; shownScore: number; onClose: () => void }) {
  const { corpusId } = target;
  const explanation = useQuery<PartExplanation>({
    queryKey: ['search-explain', corpusId, target.spec, target.query, target.topK, target.docId],
    staleTime: Infinity,
    queryFn: (): Promise<PartExplanation> => getRetrievalWorker().explain(corpusId, { spec: target.spec, query: target.query, k: target.topK, docId: target.docId }),
  });
  return (
    <div className="search-why" aria-label={`Why ${target.docId} ranks here`} role="region">
      <div className="row spread">
        <strong>Why {target.docId} ranks here</strong>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {explanation.isError && (
        <p className="error" role="alert">
          Could not explain this result: {errorMessage(explanation.error)}
        </p>
      )}
      {!explanation.data && !explanation.isError && <p role="status">Explaining…</p>}
      {explanation.data && <ResultExplanation why={explanation.data} shownScore={shownScore} />}
    </div>
  );
}

/** The searched query on the other pages: its per-query comparison, the GQR inspector, Deep search with it as the question. */
function QueryElsewhere({ queryId, text }: { queryId: string | null; text: string }) {
  if (!text) return null;
  return (
    <nav className="row query-elsewhere" aria-label="Open on other pages">
      <span className="meta">This query in:</span>
      {queryId ? (
        <a href={pageHref('compare', { query: queryId })} title={`Compare runs on ${queryId}: its per-query values and both rankings`}>
          Compare
        </a>
      ) : (
        <span className="meta" title="Compare works on the queries of the set">
          Compare (queries of the set only)
        </span>
      )}
      <a href={pageHref('gqr', { query: queryId ?? undefined, text })} title="Inspect how GQR refines this query">
        GQR inspector
      </a>
      <a href={pageHref('hds', { question: text })} title="Ask Deep search this as the question">
        Deep search
      </a>
    </nav>
  );
}
