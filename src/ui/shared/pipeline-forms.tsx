import { useEffect } from 'react';
import {
  NUMERIC_RULES,
  NORMALIZE_METHODS,
  OKAPI_BM25,
  resolveVectorForm,
  theoreticalMinScore,
  type CcPipelineSpec,
  type DensePipelineSpec,
  type EmbeddingSetRecord,
  type NormalizeMethod,
  type NumericRule,
  type PipelineSpec,
  type RrfPipelineSpec,
  type VectorFormChoice,
} from '../../core/index.ts';
import { useAppStore } from './app-store.ts';
import { useSearchableSets } from './embeddings.ts';
import { Bm25Settings } from './Bm25Settings.tsx';
import { NumberField } from './NumberField.tsx';

/** What a pipeline settings form receives (the Runs page's form contract). */
export interface SpecFormProps {
  spec: PipelineSpec;
  onChange: (spec: PipelineSpec) => void;
  corpusId: string;
}

// Points dense parts with no (or an unknown) set at the first searchable set; returns null when nothing changes.
function withKnownSets(spec: PipelineSpec, sets: readonly EmbeddingSetRecord[]): PipelineSpec | null {
  if (sets.length === 0) return null;
  if (spec.kind === 'dense') return sets.some((s) => s.modelKey === spec.modelKey) ? null : { ...spec, modelKey: sets[0]!.modelKey };
  if (spec.kind === 'rrf' || spec.kind === 'cc') {
    const children = spec.pipelines.map((p) => withKnownSets(p, sets));
    if (children.every((c) => c === null)) return null;
    return { ...spec, pipelines: [children[0] ?? spec.pipelines[0], children[1] ?? spec.pipelines[1]] };
  }
  return null;
}

function useKnownSets(spec: PipelineSpec, onChange: (spec: PipelineSpec) => void, corpusId: string): EmbeddingSetRecord[] | undefined {
  const sets = useSearchableSets(corpusId).data;
  useEffect(() => {
    const fixed = sets ? withKnownSets(spec, sets) : null;
    if (fixed) onChange(fixed);
  }, [sets, spec, onChange]);
  return sets;
}

function setLabel(set: EmbeddingSetRecord): string {
  const m = set.model;
  return `${m.modelId} (${m.dtype}, ${m.pooling}, ${m.dimensions} dims${m.prefixes.query ? ', query prefix' : ''}${set.tokens ? ', token-level' : ''})`;
}

function NoSets() {
  const setPage = useAppStore((s) => s.setPage);
  return (
    <p className="hint" role="note">
      This corpus has no embedded version yet. <button type="button" onClick={() => setPage('embeddings')}>Embed it</button>
    </p>
  );
}

/** Dense retrieval: which embedding set, and cosine or MaxSim. */
export function DenseForm({ spec, onChange, corpusId }: SpecFormProps) {
  const sets = useKnownSets(spec, onChange, corpusId);
  if (spec.kind !== 'dense') return null;
  if (sets && sets.length === 0) return <NoSets />;
  const chosen = sets?.find((s) => s.modelKey === spec.modelKey);
  return (
    <fieldset className="pipeline-settings">
      <legend>Dense</legend>
      <label>
        Embedding set{' '}
        <select aria-label="Embedding set" value={spec.modelKey} onChange={(e) => onChange({ ...spec, modelKey: e.target.value })}>
          {sets?.map((s) => (
            <option key={s.modelKey} value={s.modelKey}>
              {setLabel(s)}
            </option>
          ))}
        </select>
      </label>
      {spec.searchMode !== 'multi' && chosen && <VectorFormSelect spec={spec} rows={chosen.rowsDone} onChange={onChange} />}
      {chosen?.tokens && (
        <label>
          Similarity{' '}
          <select
            aria-label="Similarity"
            value={spec.searchMode ?? 'single'}
            onChange={(e) => onChange({ ...spec, searchMode: e.target.value as 'single' | 'multi' })}
          >
            <option value="single">cosine (one vector per document)</option>
            <option value="multi">MaxSim (token vectors)</option>
          </select>
        </label>
      )}
    </fieldset>
  );
}

/** Exact float32, or a compact first pass with float32 rescoring; `auto` says what it resolves to for this set. */
function VectorFormSelect({ spec, rows, onChange }: { spec: DensePipelineSpec; rows: number; onChange: (spec: PipelineSpec) => void }) {
  const auto = resolveVectorForm('auto', rows);
  return (
    <label>
      Vector form{' '}
      <select
        aria-label="Vector form"
        value={spec.vectorForm ?? 'auto'}
        onChange={(e) => {
          const vectorForm = e.target.value as VectorFormChoice;
          const { vectorForm: _previous, ...rest } = spec;
          onChange(vectorForm === 'auto' ? rest : { ...rest, vectorForm });
        }}
      >
        <option value="auto">automatic ({auto} for {rows.toLocaleString('en-US')} documents)</option>
        <option value="float32">float32, exact</option>
        <option value="int8">int8, float32 rescoring (¼ of the memory)</option>
        <option value="int8-exact">int8, certified exact (float32's hits, ¼ of the memory)</option>
        <option value="binary">binary (Hamming) first, then int8 and float32 rescoring</option>
      </select>
    </label>
  );
}

function ChildSelect(props: { label: string; spec: PipelineSpec; sets: EmbeddingSetRecord[]; onChange: (spec: PipelineSpec) => void }) {
  const { spec, sets } = props;
  const value = spec.kind === 'dense' ? `dense:${spec.modelKey}` : spec.kind;
  return (
    <div className="fusion-child">
      <label>
        {props.label}{' '}
        <select
          aria-label={props.label}
          value={value}
          onChange={(e) => {
            const v = e.target.value;
            props.onChange(v === 'bm25' ? { kind: 'bm25', params: { ...OKAPI_BM25 } } : { kind: 'dense', modelKey: v.slice('dense:'.length) });
          }}
        >
          <option value="bm25">BM25</option>
          {sets.map((s) => (
            <option key={s.modelKey} value={`dense:${s.modelKey}`}>
              Dense · {setLabel(s)}
            </option>
          ))}
        </select>
      </label>
      {spec.kind === 'bm25' && <Bm25Settings params={spec.params} onChange={(params) => props.onChange({ kind: 'bm25', params })} />}
    </div>
  );
}

function NumberInput(props: {
  label: string;
  value: number | null;
  step: number;
  min?: number;
  max?: number;
  /** The shared range (core NUMERIC_RULES): out-of-range text is marked with the range and not taken. */
  rule?: NumericRule;
  onChange: (v: number | null) => void;
  title?: string;
}) {
  return (
    <label title={props.title}>
      {props.label}{' '}
      <NumberField
        optional
        aria-label={props.label}
        step={props.step}
        min={props.min}
        max={props.max}
        rule={props.rule}
        value={props.value ?? undefined}
        onChange={(v) => props.onChange(v ?? null)}
      />
    </label>
  );
}

/** RRF or convex combination over two pipelines (BM25 or any embedding set). */
export function FusionForm({ spec, onChange, corpusId }: SpecFormProps) {
  const sets = useKnownSets(spec, onChange, corpusId);
  if (spec.kind !== 'rrf' && spec.kind !== 'cc') return null;
  if (sets && sets.length === 0) return <NoSets />;
  const fusion = spec as RrfPipelineSpec | CcPipelineSpec;
  const setChild = (i: 0 | 1, child: PipelineSpec) => {
    const pipelines: [PipelineSpec, PipelineSpec] = i === 0 ? [child, fusion.pipelines[1]] : [fusion.pipelines[0], child];
    if (fusion.kind === 'cc' && fusion.normalizeMethod === 'tmm') {
      // Keep the theoretical minimum in step with the retriever it belongs to.
      const mins = { pipeline1Min: theoreticalMinScore(pipelines[0]), pipeline2Min: theoreticalMinScore(pipelines[1]) };
      onChange({ ...fusion, pipelines, ...mins });
    } else onChange({ ...fusion, pipelines });
  };
  return (
    <fieldset className="pipeline-settings">
      <legend>{fusion.kind === 'rrf' ? 'Reciprocal rank fusion' : 'Convex combination'}</legend>
      <ChildSelect label="Pipeline 1" spec={fusion.pipelines[0]} sets={sets ?? []} onChange={(c) => setChild(0, c)} />
      <ChildSelect label="Pipeline 2" spec={fusion.pipelines[1]} sets={sets ?? []} onChange={(c) => setChild(1, c)} />
      <div className="row">
        {fusion.kind === 'rrf' ? (
          <NumberInput label="RRF k" value={fusion.k} step={1} rule={NUMERIC_RULES.rrfK} onChange={(k) => k !== null && onChange({ ...fusion, k })} title="score = Σ 1/(k + rank)" />
        ) : (
          <>
            <label>
              Normalisation{' '}
              <select
                aria-label="Normalisation"
                value={fusion.normalizeMethod}
                onChange={(e) => {
                  const normalizeMethod = e.target.value as NormalizeMethod;
                  const mins =
                    normalizeMethod === 'tmm'
                      ? {
                          pipeline1Min: fusion.pipeline1Min ?? theoreticalMinScore(fusion.pipelines[0]),
                          pipeline2Min: fusion.pipeline2Min ?? theoreticalMinScore(fusion.pipelines[1]),
                        }
                      : {};
                  onChange({ ...fusion, normalizeMethod, ...mins });
                }}
              >
                {NORMALIZE_METHODS.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </label>
            <NumberInput
              label="Weight of pipeline 1"
              value={fusion.weight}
              step={0.05}
              rule={NUMERIC_RULES.weight}
              onChange={(weight) => weight !== null && onChange({ ...fusion, weight })}
            />
            {fusion.normalizeMethod === 'tmm' && (
              <>
                <NumberInput label="Minimum score 1" value={fusion.pipeline1Min} step={0.1} onChange={(v) => onChange({ ...fusion, pipeline1Min: v })} />
                <NumberInput label="Minimum score 2" value={fusion.pipeline2Min} step={0.1} onChange={(v) => onChange({ ...fusion, pipeline2Min: v })} />
              </>
            )}
          </>
        )}
        <NumberInput
          label="Fetch multiplier"
          value={fusion.fetchKMultiplier}
          step={1}
          rule={NUMERIC_RULES.fetchKMultiplier}
          title="each pipeline fetches top k × this before fusing"
          onChange={(m) => m !== null && Number.isInteger(m) && onChange({ ...fusion, fetchKMultiplier: m })}
        />
      </div>
    </fieldset>
  );
}
