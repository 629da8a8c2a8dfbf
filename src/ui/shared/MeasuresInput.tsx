import { useState } from 'react';
import { DEFAULT_MEASURES, parseMeasures } from '../../core/index.ts';
import { errorMessage } from './format.ts';

/** Measure names typed as a comma-separated list, validated as typed; `onChange` receives only valid lists. */
export function MeasuresInput({ value, onChange, label = 'Measures' }: { value: readonly string[]; onChange: (measures: string[]) => void; label?: string }) {
  const [text, setText] = useState(value.join(', '));
  const [error, setError] = useState<string | null>(null);
  const update = (next: string) => {
    setText(next);
    try {
      const names = next.split(',').map((s) => s.trim()).filter(Boolean);
      if (names.length === 0) throw new Error('give at least one measure');
      onChange(parseMeasures(names).map((m) => m.name));
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <label className="measures-input" title="ir_measures names (nDCG@k, R@k, P@k, RR[@k], AP[@k], Rprec, Judged@k) or trec_eval / ranx names (ndcg_cut_10, ndcg_cut.10, recall_100, P_5, map, recip_rank, mrr@10…): each is shown under its ir_measures name">
      {label}{' '}
      <input type="text" value={text} aria-label={label} aria-invalid={error !== null} onChange={(e) => update(e.target.value)} />
      <button type="button" onClick={() => update(DEFAULT_MEASURES.join(', '))}>
        Defaults
      </button>
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </label>
  );
}
