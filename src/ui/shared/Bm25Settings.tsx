import { MINISEARCH_BM25, OKAPI_BM25, type Bm25Params } from '../../core/index.ts';
import { useSearchSettings } from './search-settings.ts';
import { NumberField } from './NumberField.tsx';

const FIELDS: ReadonlyArray<{ key: 'k1' | 'b' | 'd'; label: string; step: number; max?: number; title: string }> = [
  { key: 'k1', label: 'k1', step: 0.1, title: 'term-frequency saturation' },
  { key: 'b', label: 'b', step: 0.05, max: 1, title: 'length normalisation (0–1)' },
  { key: 'd', label: 'd', step: 0.1, title: 'BM25+ lower bound; 0 = plain Okapi BM25' },
];

/**
 * BM25 scoring parameters; they apply at query time, no re-indexing. Edits the search page's settings, or
 * `params` through `onChange` when given (e.g. a pipeline being configured for a run).
 */
export function Bm25Settings(props: { params?: Bm25Params; onChange?: (params: Bm25Params) => void } = {}) {
  const shared = useSearchSettings((s) => s.bm25);
  const setShared = useSearchSettings((s) => s.setBm25);
  const bm25 = props.params ?? shared;
  const setBm25 = (change: Partial<Bm25Params>) => (props.onChange ? props.onChange({ ...bm25, ...change }) : setShared(change));
  const preset = (p: Bm25Params) => setBm25({ ...p });
  return (
    <fieldset className="bm25-settings">
      <legend>BM25</legend>
      {FIELDS.map((f) => (
        <label key={f.key} title={f.title}>
          {f.label}{' '}
          <NumberField aria-label={`BM25 ${f.label}`} step={f.step} min={0} max={f.max} value={bm25[f.key]} onChange={(value) => setBm25({ [f.key]: value })} />
        </label>
      ))}
      <label title="MiniSearch multiplies scores by the number of matched query terms">
        <input type="checkbox" checked={bm25.termCountBoost} onChange={(e) => setBm25({ termCountBoost: e.target.checked })} /> matched-terms
        boost
      </label>
      <button type="button" onClick={() => preset(OKAPI_BM25)}>
        Okapi (k1 0.9, b 0.4)
      </button>
      <button type="button" onClick={() => preset(MINISEARCH_BM25)}>
        MiniSearch defaults
      </button>
    </fieldset>
  );
}
