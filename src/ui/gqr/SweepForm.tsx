import { useMemo } from 'react';
import {
  NUMERIC_RULES,
  parseGridAxis,
  parseMeasure,
  resolveGqrConfig,
  SWEEP_KEYS,
  SWEEP_MODE_VALUES,
  sweepKeyLabel,
  validateGrid,
  type CorpusRecord,
  type GqrConfig,
  type GqrPipelineSpec,
  type GridAxis,
  type SweepKey,
} from '../../core/index.ts';
import { errorMessage, formatCount } from '../shared/format.ts';
import { GQR_NUMBER_SETTINGS, GQR_SETTING_WORDS, GqrPoolSizeField } from '../shared/GqrPipelineForm.tsx';
import { MeasuresInput } from '../shared/MeasuresInput.tsx';
import { Bm25Settings } from '../shared/Bm25Settings.tsx';
import { useAppStore } from '../shared/app-store.ts';
import { useSearchableSets } from '../shared/embeddings.ts';
import { startSweep, useSweepJob } from './sweep-store.ts';
import { isActive } from '../shared/job-store.ts';
import { CancelButton } from '../shared/CancelButton.tsx';
import { useFieldProblems } from '../shared/field-problems.ts';
import { NumberField } from '../shared/NumberField.tsx';
import { useSweepForm } from './sweep-form-store.ts';

const KEY_TITLES: Record<SweepKey, string> = {
  mixtureAlpha: 'weight of the complementary distribution in the target, 0–1',
  temperature: 'softmax temperature, > 0',
  learningRate: 'step size, > 0',
  nSteps: 'optimisation steps, a positive whole number',
  candidatePoolMode: 'union or primary',
  target: 'per-step or fixed',
  optimizer: 'gd or adam',
};

function defaultName(): string {
  const now = new Date();
  return `α sweep ${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`;
}

/** Configures a sweep: the two children, the fixed GQR settings, the grid, depth and measures. */
export function SweepForm({ corpus, scored }: { corpus: CorpusRecord; scored: boolean }) {
  const sets = useSearchableSets(corpus.id);
  const setPage = useAppStore((s) => s.setPage);
  const state = useSweepJob((s) => s.state);
  const cancel = useSweepJob((s) => s.cancel);
  // The form's values live in a store (sessionStorage): leaving the lab and coming back keeps them.
  const { modelKey, searchMode, bm25, base, gridText, topK, measures, name, update } = useSweepForm();
  const fields = useFieldProblems();

  const set = sets.data?.find((s) => s.modelKey === modelKey) ?? sets.data?.[0];
  const mode = set?.tokens ? searchMode : 'single';

  const grid = useMemo(() => {
    const axes: GridAxis[] = [];
    const fieldErrors: Partial<Record<SweepKey, string>> = {};
    for (const key of SWEEP_KEYS) {
      const text = gridText[key]?.trim();
      if (!text) continue;
      try {
        axes.push(parseGridAxis(`${key}=${text}`));
      } catch (error) {
        fieldErrors[key] = errorMessage(error);
      }
    }
    let error: string | null = null;
    let points = 0;
    try {
      resolveGqrConfig(base);
      if (Object.keys(fieldErrors).length === 0) {
        validateGrid(axes, base);
        points = axes.reduce((n, a) => n * a.values.length, 1);
      }
    } catch (e) {
      error = errorMessage(e);
    }
    return { axes, fieldErrors, error, points };
  }, [gridText, base]);

  const shallowMeasures = measures.filter((m) => {
    const cutoff = parseMeasure(m).cutoff;
    return cutoff !== undefined && cutoff > topK;
  });
  const running = isActive(state);
  const ready = !!set && scored && corpus.queryCount > 0 && !grid.error && Object.keys(grid.fieldErrors).length === 0 && grid.points > 0 && !fields.blocked;

  const submit = () => {
    if (!set || !ready) return;
    const spec: GqrPipelineSpec = {
      kind: 'gqr',
      primary: { kind: 'dense', modelKey: set.modelKey, searchMode: mode },
      complementary: { kind: 'bm25', params: bm25 },
      config: resolveGqrConfig(base),
    };
    void startSweep({ corpus, name: name.trim() || defaultName(), spec, axes: grid.axes, topK, measures });
  };

  const setBaseValue = (key: keyof GqrConfig, value: string | number) => update({ base: { ...base, [key]: value } });

  return (
    <section className="panel" aria-label="New sweep">
      <h2>New sweep</h2>
      <form
        className="sweep-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <fieldset>
          <legend>Primary: dense retrieval (its query is refined)</legend>
          {sets.data && sets.data.length === 0 ? (
            <p className="notice">
              This corpus has no complete embeddings yet, and GQR refines a dense query.{' '}
              <button type="button" onClick={() => setPage('embeddings')}>
                Embed it
              </button>
            </p>
          ) : (
            <div className="row">
              <label>
                Embeddings{' '}
                <select aria-label="Embedding set" value={set?.modelKey ?? ''} onChange={(e) => update({ modelKey: e.target.value })}>
                  {sets.data?.map((s) => (
                    <option key={s.modelKey} value={s.modelKey}>
                      {s.model.modelId} ({s.model.dimensions} dims{s.tokens ? ', token vectors' : ''})
                    </option>
                  ))}
                </select>
              </label>
              <label title="MaxSim needs token vectors stored with the embeddings">
                Scoring{' '}
                <select aria-label="Dense scoring" value={mode} onChange={(e) => update({ searchMode: e.target.value as 'single' | 'multi' })}>
                  <option value="single">single vector (cosine)</option>
                  <option value="multi" disabled={!set?.tokens}>
                    multi-vector (MaxSim)
                  </option>
                </select>
              </label>
            </div>
          )}
        </fieldset>
        <fieldset>
          <legend>Complementary: BM25 (guides the refinement)</legend>
          <Bm25Settings params={bm25} onChange={(params) => update({ bm25: params })} />
        </fieldset>
        <fieldset>
          <legend>Grid (comma-separated values; leave empty to keep the fixed setting)</legend>
          <div className="grid-fields">
            {SWEEP_KEYS.map((key) => (
              <label key={key} title={KEY_TITLES[key]}>
                <span>
                  {sweepKeyLabel(key)} <code>{key}</code>
                </span>
                <input
                  type="text"
                  aria-label={`Grid ${key}`}
                  value={gridText[key] ?? ''}
                  placeholder={`fixed: ${String(base[key])}`}
                  aria-invalid={!!grid.fieldErrors[key]}
                  onChange={(e) => update({ gridText: { ...gridText, [key]: e.target.value } })}
                />
                {grid.fieldErrors[key] && (
                  <span className="error" role="alert">
                    {grid.fieldErrors[key]}
                  </span>
                )}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>Fixed settings (used where the grid does not vary them)</legend>
          <div className="row wrap">
            {GQR_NUMBER_SETTINGS.map(([key, rule]) => (
              <label key={key} title={GQR_SETTING_WORDS[key].hint}>
                {key}{' '}
                <NumberField rule={rule} aria-label={`Fixed ${key}`} value={base[key]} onChange={(value) => setBaseValue(key, value)} onProblem={fields.report(`Fixed ${key}`)} />
              </label>
            ))}
            {(['candidatePoolMode', 'target', 'optimizer'] as const).map((key) => (
              <label key={key} title={GQR_SETTING_WORDS[key].hint}>
                {key}{' '}
                <select aria-label={`Fixed ${key}`} value={base[key]} onChange={(e) => setBaseValue(key, e.target.value)}>
                  {SWEEP_MODE_VALUES[key]!.map((v) => (
                    <option key={v}>{v}</option>
                  ))}
                </select>
              </label>
            ))}
            <GqrPoolSizeField config={base} topK={topK} onChange={(config) => update({ base: config })} label="Fixed poolSize" />
            <label title="auto follows the primary's scoring">
              scorerMode{' '}
              <select aria-label="Fixed scorerMode" value={base.scorerMode} onChange={(e) => setBaseValue('scorerMode', e.target.value)}>
                {['auto', 'single', 'multi'].map((v) => (
                  <option key={v}>{v}</option>
                ))}
              </select>
            </label>
          </div>
        </fieldset>
        <div className="row wrap">
          <label>
            top k{' '}
            <NumberField
              rule={NUMERIC_RULES.topK}
              value={topK}
              aria-label="Results per query (top k)"
              onChange={(value) => update({ topK: value })}
              onProblem={fields.report('top k')}
            />
          </label>
          <MeasuresInput value={measures} onChange={(next) => update({ measures: next })} />
          <label>
            Name <input type="text" value={name} placeholder="α sweep hh:mm" aria-label="Sweep name" onChange={(e) => update({ name: e.target.value })} />
          </label>
        </div>
        {shallowMeasures.length > 0 && (
          <p className="hint">
            {shallowMeasures.join(', ')} only see{shallowMeasures.length === 1 ? 's' : ''} the {topK} results kept per query; raise top k to
            measure deeper (each child fetches top k × {base.fetchKMultiplier}).
          </p>
        )}
        {grid.error && (
          <p className="error" role="alert">
            {grid.error}
          </p>
        )}
        {fields.blocked && (
          <p className="error" role="alert">
            {fields.summary}
          </p>
        )}
        {!scored && <p className="notice">This corpus has no relevance judgements, so a sweep cannot be scored.</p>}
        <div className="row">
          <button type="submit" className="primary" disabled={!ready || running}>
            Run sweep: {grid.points} grid point{grid.points === 1 ? '' : 's'} × {formatCount(corpus.queryCount)} queries
          </button>
          {running && state.progress.phase !== 'save' && <CancelButton cancelling={state.status === 'cancelling'} onCancel={cancel} />}
        </div>
      </form>
    </section>
  );
}
