import { create } from 'zustand';
import { defaultSpec, type CcPipelineSpec, type DensePipelineSpec, type GqrPipelineSpec, type PipelineSpec, type RrfPipelineSpec } from '../../core/index.ts';

/** The pipeline kinds the Search page offers. */
export type SearchKind = 'bm25' | 'dense' | 'rrf' | 'cc' | 'gqr';

interface PipelineStore {
  kind: SearchKind;
  /** The settings of each kind, kept while switching between them (BM25's are the app store's). */
  dense: DensePipelineSpec;
  rrf: RrfPipelineSpec;
  cc: CcPipelineSpec;
  gqr: GqrPipelineSpec;
  setKind(kind: SearchKind): void;
  /** Stores an edited spec of its kind. */
  setSpec(spec: PipelineSpec): void;
  /** Switches to dense search over one embedding set. */
  searchWithSet(modelKey: string): void;
}

export const usePipelineStore = create<PipelineStore>((set) => ({
  kind: 'bm25',
  dense: defaultSpec('dense'),
  rrf: defaultSpec('rrf'),
  cc: defaultSpec('cc'),
  gqr: defaultSpec('gqr'),
  setKind(kind) {
    set({ kind });
  },
  setSpec(spec) {
    if (spec.kind === 'dense' || spec.kind === 'rrf' || spec.kind === 'cc' || spec.kind === 'gqr') set({ [spec.kind]: spec } as Partial<PipelineStore>);
  },
  searchWithSet(modelKey) {
    set((s) => ({
      kind: 'dense',
      dense: { ...s.dense, modelKey },
      rrf: { ...s.rrf, pipelines: [{ kind: 'dense', modelKey }, s.rrf.pipelines[1]] },
      cc: { ...s.cc, pipelines: [{ kind: 'dense', modelKey }, s.cc.pipelines[1]] },
      gqr: { ...s.gqr, primary: { ...s.gqr.primary, kind: 'dense', modelKey } },
    }));
  },
}));
