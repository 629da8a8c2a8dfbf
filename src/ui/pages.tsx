import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
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
  { id: 'embeddings', label: 'Embeddings', component: lazy(() => import('./embeddings/EmbeddingsPage.tsx').then((m) => ({ default: m.EmbeddingsPage }))) },
  { id: 'runs', label: 'Runs', component: lazy(() => import('./runs/RunsPage.tsx').then((m) => ({ default: m.RunsPage }))) },
  { id: 'compare', label: 'Compare', component: lazy(() => import('./compare/ComparePage.tsx').then((m) => ({ default: m.ComparePage }))) },
  { id: 'leaderboard', label: 'Leaderboard', component: lazy(() => import('./leaderboard/LeaderboardPage.tsx').then((m) => ({ default: m.LeaderboardPage }))) },
  { id: 'gqr', label: 'GQR lab', component: lazy(() => import('./gqr/GqrLabPage.tsx').then((m) => ({ default: m.GqrLabPage }))) },
  { id: 'hds', label: 'Deep search', component: lazy(() => import('./hds/HdsPage.tsx').then((m) => ({ default: m.HdsPage }))) },
];

export function findPage(id: string): PageEntry {
  return PAGES.find((p) => p.id === id) ?? PAGES[0]!;
}
