import { Suspense } from 'react';
import { ErrorBoundary } from './shared/ErrorBoundary.tsx';
import { StorageMeter } from './shared/StorageMeter.tsx';
import { findPage, PAGES } from './pages.tsx';
import { useAppStore } from './shared/app-store.ts';

export function App() {
  const { page, setPage } = useAppStore();
  const current = findPage(page);
  const Page = current.component;
  return (
    <div className="app">
      <header className="app-header">
        <h1>Deep Search Workbench</h1>
        <nav aria-label="Pages">
          {PAGES.map((p) => (
            <a
              key={p.id}
              href={`#/${p.id}`}
              className={p.id === current.id ? 'tab active' : 'tab'}
              aria-current={p.id === current.id ? 'page' : undefined}
              onClick={() => setPage(p.id)}
            >
              {p.label}
            </a>
          ))}
        </nav>
        <StorageMeter />
      </header>
      <main>
        <ErrorBoundary key={current.id}>
          <Suspense fallback={<p className="panel">Loading…</p>}>
            <Page />
          </Suspense>
        </ErrorBoundary>
      </main>
    </div>
  );
}
