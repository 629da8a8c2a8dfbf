import { create } from 'zustand';
import { OKAPI_BM25, type Bm25Params } from '../../core/index.ts';

export type Page = 'corpora' | 'search';
export const PAGES: ReadonlyArray<{ id: Page; label: string }> = [
  { id: 'corpora', label: 'Corpora' },
  { id: 'search', label: 'Search' },
];

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
  const id = globalThis.location?.hash.replace(/^#\/?/, '') as Page;
  return PAGES.some((p) => p.id === id) ? id : 'corpora';
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
