import { create } from 'zustand';
import { OKAPI_BM25, type Bm25Params } from '../../core/index.ts';

/** Id of a page in src/ui/pages.tsx; also the URL hash. */
export type Page = string;

interface AppState {
  page: Page;
  /** The corpus the search and experiment pages work on. */
  corpusId: string | null;
  bm25: Bm25Params;
  setPage(page: Page): void;
  setCorpusId(id: string | null): void;
  setBm25(params: Partial<Bm25Params>): void;
}

function pageFromHash(): Page {
  return globalThis.location?.hash.replace(/^#\/?/, '').split('?')[0] || 'corpora';
}

export const useAppStore = create<AppState>((set) => ({
  page: pageFromHash(),
  corpusId: null,
  bm25: { ...OKAPI_BM25 },
  setPage(page) {
    if (globalThis.location && globalThis.location.hash !== `#/${page}`) globalThis.location.hash = `/${page}`;
    set({ page });
  },
  setCorpusId(corpusId) {
    set({ corpusId });
  },
  setBm25(params) {
    set((state) => ({ bm25: { ...state.bm25, ...params } }));
  },
}));

globalThis.addEventListener?.('hashchange', () => useAppStore.setState({ page: pageFromHash() }));
