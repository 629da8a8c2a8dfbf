import { create } from 'zustand';

/** Id of a page in src/ui/pages.tsx; also the URL hash. */
export type Page = string;

interface AppState {
  page: Page;
  /** The corpus the search and experiment pages work on. */
  corpusId: string | null;
  setPage(page: Page): void;
  setCorpusId(id: string | null): void;
}

function pageFromHash(): Page {
  return globalThis.location?.hash.replace(/^#\/?/, '').split('?')[0] || 'corpora';
}

export const useAppStore = create<AppState>((set) => ({
  page: pageFromHash(),
  corpusId: null,
  setPage(page) {
    if (globalThis.location && globalThis.location.hash !== `#/${page}`) globalThis.location.hash = `/${page}`;
    set({ page });
  },
  setCorpusId(corpusId) {
    set({ corpusId });
  },
}));

globalThis.addEventListener?.('hashchange', () => useAppStore.setState({ page: pageFromHash() }));
