// The search settings of the Search, Runs and Deep search pages, in ONE store: the Search page's pipeline of each
// kind (BM25 parameters included), the Runs page's new-run pipeline and k, and Deep search's retriever. Kept while
// switching pages; Deep search's retriever is also saved with the Deep search settings (ui/hds/settings-state.ts
// writes it, as before, so a reload keeps it).
import { create } from 'zustand';
import {
  defaultSpec,
  OKAPI_BM25,
  type Bm25Params,
  type CcPipelineSpec,
  type DensePipelineSpec,
  type GqrPipelineSpec,
  type PipelineSpec,
  type RrfPipelineSpec,
} from '../../core/index.ts';

/** The pipeline kinds the Search page offers. */
export type SearchKind = 'bm25' | 'dense' | 'rrf' | 'cc' | 'gqr';

/** The Runs page's default number of results per query. */
export const DEFAULT_RUN_K = 1000;

export interface SearchSettingsState {
  /** The Search page's pipeline kind, and the settings of each kind (kept while switching between them). */
  kind: SearchKind;
  bm25: Bm25Params;
  dense: DensePipelineSpec;
  rrf: RrfPipelineSpec;
  cc: CcPipelineSpec;
  gqr: GqrPipelineSpec;
  /** The Runs page's new run. */
  run: { spec: PipelineSpec; k: number };
  /** The retriever Deep search's agent searches with. */
  deepSearch: PipelineSpec;
  setKind(kind: SearchKind): void;
  setBm25(params: Partial<Bm25Params>): void;
  /** Stores an edited Search page spec of its kind. */
  setSpec(spec: PipelineSpec): void;
  /** Switches the Search page to dense search over one embedding set (fusion's dense child too). */
  searchWithSet(modelKey: string): void;
  setRun(change: Partial<{ spec: PipelineSpec; k: number }>): void;
  setDeepSearchSpec(spec: PipelineSpec): void;
}

/** The settings a fresh page starts with. */
export function initialSearchSettings(): Pick<SearchSettingsState, 'kind' | 'bm25' | 'dense' | 'rrf' | 'cc' | 'gqr' | 'run' | 'deepSearch'> {
  return {
    kind: 'bm25',
    bm25: { ...OKAPI_BM25 },
    dense: defaultSpec('dense'),
    rrf: defaultSpec('rrf'),
    cc: defaultSpec('cc'),
    gqr: defaultSpec('gqr'),
    run: { spec: defaultSpec('bm25'), k: DEFAULT_RUN_K },
    deepSearch: defaultSpec('bm25'),
  };
}

/** The spec the Search page searches with. */
export function searchSpecOf(s: Pick<SearchSettingsState, 'kind' | 'bm25' | 'dense' | 'rrf' | 'cc' | 'gqr'>): PipelineSpec {
  return s.kind === 'bm25' ? { kind: 'bm25', params: s.bm25 } : s[s.kind];
}

export const useSearchSettings = create<SearchSettingsState>((set) => ({
  ...initialSearchSettings(),
  setKind(kind) {
    set({ kind });
  },
  setBm25(params) {
    set((s) => ({ bm25: { ...s.bm25, ...params } }));
  },
  setSpec(spec) {
    if (spec.kind === 'bm25') set({ bm25: { ...spec.params } });
    else if (spec.kind === 'dense' || spec.kind === 'rrf' || spec.kind === 'cc' || spec.kind === 'gqr') set({ [spec.kind]: spec } as Partial<SearchSettingsState>);
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
  setRun(change) {
    set((s) => ({ run: { ...s.run, ...change } }));
  },
  setDeepSearchSpec(deepSearch) {
    set({ deepSearch });
  },
}));
