import type { ComponentType } from 'react';
import { defaultSpec, OKAPI_BM25, type PipelineSpec } from '../../core/index.ts';
import { Bm25Settings } from './Bm25Settings.tsx';
import { DenseForm, FusionForm } from './pipeline-forms.tsx';
import { GqrPipelineForm, initialGqrSpec } from './GqrPipelineForm.tsx';

/** What a pipeline's settings form receives. */
export interface PipelineFormProps<S extends PipelineSpec = PipelineSpec> {
  spec: S;
  onChange: (spec: PipelineSpec) => void;
  /** The corpus the run is for (forms may list its embedding sets, etc.). */
  corpusId: string;
  /** Results per query, when the form can show what depends on it (GQR's candidate pool). */
  topK?: number;
}

/** A pipeline kind offered on the Runs page. To add one: an entry here with its initial spec and form. */
export interface PipelineKindEntry {
  kind: PipelineSpec['kind'];
  label: string;
  /** The spec the form starts from. */
  initial: () => PipelineSpec;
  /** Edits a spec of this kind. */
  Form: ComponentType<PipelineFormProps>;
}

function Bm25Form({ spec, onChange }: PipelineFormProps) {
  if (spec.kind !== 'bm25') return null;
  return <Bm25Settings params={spec.params} onChange={(params) => onChange({ kind: 'bm25', params })} />;
}

export const PIPELINE_KINDS: PipelineKindEntry[] = [
  { kind: 'bm25', label: 'BM25', initial: () => ({ kind: 'bm25', params: { ...OKAPI_BM25 } }), Form: Bm25Form },
  { kind: 'dense', label: 'Dense', initial: () => defaultSpec('dense'), Form: DenseForm },
  { kind: 'rrf', label: 'Hybrid: RRF', initial: () => defaultSpec('rrf'), Form: FusionForm },
  { kind: 'cc', label: 'Hybrid: convex combination', initial: () => defaultSpec('cc'), Form: FusionForm },
  { kind: 'gqr', label: 'GQR: dense refined toward BM25', initial: initialGqrSpec, Form: GqrPipelineForm },
];

/** Chooses a pipeline kind and edits its settings. */
export function PipelineForm({ spec, onChange, corpusId, topK }: PipelineFormProps) {
  const entry = PIPELINE_KINDS.find((e) => e.kind === spec.kind);
  return (
    <div className="pipeline-form">
      <label>
        Pipeline{' '}
        <select
          aria-label="Pipeline"
          value={spec.kind}
          onChange={(e) => {
            const next = PIPELINE_KINDS.find((k) => k.kind === e.target.value);
            if (next) onChange(next.initial());
          }}
        >
          {PIPELINE_KINDS.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      {entry ? <entry.Form spec={spec} onChange={onChange} corpusId={corpusId} topK={topK} /> : <p className="hint">No settings form for pipeline “{spec.kind}”.</p>}
    </div>
  );
}
