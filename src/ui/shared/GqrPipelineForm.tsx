import {
  DEFAULT_GQR_CONFIG,
  describeGqrPool,
  NUMERIC_RULES,
  OKAPI_BM25,
  resolveGqrConfig,
  SWEEP_MODE_VALUES,
  type GqrConfig,
  type GqrPipelineSpec,
  type PipelineSpec,
} from '../../core/index.ts';
import { errorMessage } from './format.ts';
import { Bm25Settings } from './Bm25Settings.tsx';
import { NumberField } from './NumberField.tsx';
import { DenseForm } from './pipeline-forms.tsx';

/**
 * The candidate pool's depth: empty = top k × fetchKMultiplier (the reference, so the pool and the ranking follow
 * k); a number fixes it, so the lab at top 100 and a run at k 1000 re-rank the same pool. Shows the pool at `topK`.
 */
export function GqrPoolSizeField({ config, topK, onChange, label = 'GQR pool size' }: { config: GqrConfig; topK?: number; onChange: (config: GqrConfig) => void; label?: string }) {
  let pool: string | null = null;
  try {
    pool = topK !== undefined ? describeGqrPool(topK, config) : null;
  } catch {
    pool = null;
  }
  return (
    <span className="gqr-pool-size">
      <label title="documents each child retrieves for the candidate pool; empty: top k × fetchKMultiplier">
        pool size{' '}
        <NumberField
          optional
          rule={NUMERIC_RULES.gqrPoolSize}
          value={config.poolSize}
          placeholder="follows k"
          aria-label={label}
          onChange={(poolSize) => {
            const { poolSize: _previous, ...rest } = config;
            onChange(poolSize === undefined ? rest : { ...rest, poolSize });
          }}
        />
      </label>{' '}
      {pool && (
        <span className="meta" data-testid="gqr-pool">
          Pool: {pool}
        </span>
      )}
    </span>
  );
}

/** The GQR spec a form starts from: a dense primary (its set chosen by the dense form), BM25, the reference defaults. */
export function initialGqrSpec(): GqrPipelineSpec {
  return {
    kind: 'gqr',
    primary: { kind: 'dense', modelKey: '' },
    complementary: { kind: 'bm25', params: { ...OKAPI_BM25 } },
    config: { ...DEFAULT_GQR_CONFIG },
  };
}

/** GQR's numeric settings and their shared ranges (the pipeline form and the lab's fixed settings). */
export const GQR_NUMBER_SETTINGS = [
  ['mixtureAlpha', NUMERIC_RULES.weight],
  ['nSteps', NUMERIC_RULES.gqrSteps],
  ['learningRate', NUMERIC_RULES.gqrLearningRate],
  ['temperature', NUMERIC_RULES.gqrTemperature],
  ['fetchKMultiplier', NUMERIC_RULES.fetchKMultiplier],
] as const;
const MODE_KEYS = ['candidatePoolMode', 'target', 'optimizer'] as const;

/**
 * What a pipeline form calls each GQR setting, and what it does. The reference's name (the lab's grid, the specs,
 * the CLI's `--param`) opens the tooltip and names the field for assistive technology.
 */
export const GQR_SETTING_WORDS: Record<(typeof GQR_NUMBER_SETTINGS)[number][0] | (typeof MODE_KEYS)[number] | 'scorerMode', { label: string; hint: string }> = {
  mixtureAlpha: { label: 'BM25 weight α', hint: 'mixtureAlpha: weight of the BM25 distribution in the consensus target, 0 (dense only) to 1 (BM25 only)' },
  nSteps: { label: 'steps', hint: 'nSteps: refinement steps of the query vector' },
  learningRate: { label: 'step size η', hint: 'learningRate: size of each refinement step, above 0' },
  temperature: { label: 'temperature τ', hint: "temperature: softmax temperature over both retrievers' scores, above 0" },
  fetchKMultiplier: { label: 'fetch × k', hint: 'fetchKMultiplier: each retriever is asked for top k × this many documents (unless a pool size is set)' },
  candidatePoolMode: { label: 'candidates', hint: "candidatePoolMode: union = the dense list, then BM25's new documents; primary = the dense list only" },
  target: { label: 'target', hint: 'target: per-step = the consensus recomputed every step (the reference); fixed = the initial mixture' },
  optimizer: { label: 'optimizer', hint: 'optimizer: gd = plain gradient descent (the reference); adam' },
  scorerMode: { label: 'scorer', hint: "scorerMode: single = cosine, multi = MaxSim, auto = the dense pipeline's own mode" },
};

/** Edits a GQR pipeline: the dense primary, the BM25 complementary, and every GQR setting. */
export function GqrPipelineForm({ spec, onChange, corpusId, topK }: { spec: PipelineSpec; onChange: (spec: PipelineSpec) => void; corpusId: string; topK?: number }) {
  if (spec.kind !== 'gqr') return null;
  const set = (change: Partial<GqrConfig>) => onChange({ ...spec, config: { ...spec.config, ...change } });
  let problem: string | null = null;
  try {
    resolveGqrConfig(spec.config);
  } catch (error) {
    problem = errorMessage(error);
  }
  return (
    <fieldset className="pipeline-settings">
      <legend>GQR</legend>
      <DenseForm spec={spec.primary} corpusId={corpusId} onChange={(primary) => onChange({ ...spec, primary })} />
      {spec.complementary.kind === 'bm25' && (
        <Bm25Settings params={spec.complementary.params} onChange={(params) => onChange({ ...spec, complementary: { kind: 'bm25', params } })} />
      )}
      {GQR_NUMBER_SETTINGS.map(([key, rule]) => (
        <label key={key} title={GQR_SETTING_WORDS[key].hint}>
          {GQR_SETTING_WORDS[key].label}{' '}
          <NumberField rule={rule} aria-label={`GQR ${key}`} value={spec.config[key]} onChange={(value) => set({ [key]: value })} />
        </label>
      ))}
      <GqrPoolSizeField config={spec.config} topK={topK} onChange={(config) => onChange({ ...spec, config })} />
      {MODE_KEYS.map((key) => (
        <label key={key} title={GQR_SETTING_WORDS[key].hint}>
          {GQR_SETTING_WORDS[key].label}{' '}
          <select aria-label={`GQR ${key}`} value={spec.config[key]} onChange={(e) => set({ [key]: e.target.value } as Partial<GqrConfig>)}>
            {SWEEP_MODE_VALUES[key]!.map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        </label>
      ))}
      <label title={GQR_SETTING_WORDS.scorerMode.hint}>
        {GQR_SETTING_WORDS.scorerMode.label}{' '}
        <select aria-label="GQR scorerMode" value={spec.config.scorerMode} onChange={(e) => set({ scorerMode: e.target.value as GqrConfig['scorerMode'] })}>
          {['auto', 'single', 'multi'].map((v) => (
            <option key={v}>{v}</option>
          ))}
        </select>
      </label>
      {problem && (
        <span className="error" role="alert">
          {problem}
        </span>
      )}
    </fieldset>
  );
}
