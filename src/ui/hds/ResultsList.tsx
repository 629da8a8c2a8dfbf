import type { HdsResultRecord } from '../../core/index.ts';

/** How relevance marks are worded: a multi-hop question's judged passages are its gold supporting passages. */
export type RelevanceWording = 'supporting' | 'relevant';

const PASSAGE_CHARS = 600;

/** The results of one query: id, score, relevance mark and the text the model was shown. Text only, never HTML. */
export function ResultsList(props: {
  query: string;
  results: HdsResultRecord[];
  wording: RelevanceWording;
  onOpenDocument?: (docId: string, query: string) => void;
}) {
  const { query, results, wording, onOpenDocument } = props;
  if (results.length === 0) return <p className="meta">No results.</p>;
  return (
    <ol className="hds-results" aria-label={`Results for ${query}`}>
      {results.map((r, i) => (
        <li key={`${r.id}-${i}`} className={r.relevance !== undefined && r.relevance > 0 ? 'relevant' : undefined}>
          <div className="row">
            <button type="button" className="link doc-id" onClick={() => onOpenDocument?.(r.id, query)} title="Open the document">
              {r.id}
            </button>
            {r.title && r.title.trim() && <span className="doc-title">{r.title}</span>}
            <span className="meta">score {formatScore(r.score)}</span>
            <RelevanceMark relevance={r.relevance} wording={wording} />
            {!r.shown && <span className="badge muted">not shown to the model</span>}
          </div>
          {r.text && <p className="passage-text">{r.text.length > PASSAGE_CHARS ? `${r.text.slice(0, PASSAGE_CHARS)} …` : r.text}</p>}
        </li>
      ))}
    </ol>
  );
}

function RelevanceMark({ relevance, wording }: { relevance?: number; wording: RelevanceWording }) {
  if (relevance === undefined) return null;
  if (relevance <= 0) return <span className="badge muted">judged not relevant</span>;
  const text = wording === 'supporting' ? 'gold supporting passage' : `relevant (qrels ${relevance})`;
  return (
    <span className="badge relevant" data-testid="relevance-mark">
      ✓ {text}
    </span>
  );
}

export function formatScore(score: number): string {
  return Number.isFinite(score) ? score.toFixed(3) : String(score);
}
