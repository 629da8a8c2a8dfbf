import type { ComponentType, LazyExoticComponent } from 'react';
import { CorporaPage } from './corpora/CorporaPage.tsx';
import { SearchPage } from './search/SearchPage.tsx';

/** A top-level page: its id is the URL hash (`#/runs`). Heavy pages load on first visit. */
export interface PageEntry {
  id: string;
  label: string;
  component: ComponentType | LazyExoticComponent<ComponentType>;
}

export const PAGES: readonly PageEntry[] = [
  { id: 'corpora', label: 'Corpora', component: CorporaPage },
  { id: 'search', label: 'Search', component: SearchPage },
];

export function findPage(id: string): PageEntry {
  return PAGES.find((p) => p.id === id) ?? PAGES[0]!;
}
