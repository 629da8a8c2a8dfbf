import { CorporaPage } from './corpora/CorporaPage.tsx';
import { StorageMeter } from './corpora/StorageMeter.tsx';
import { SearchPage } from './search/SearchPage.tsx';
import { PAGES, useAppStore } from './state/app-store.ts';

export function App() {
  const { page, setPage } = useAppStore();
  return (
    <div className="app">
      <header className="app-header">
        <h1>Deep Search Workbench</h1>
        <nav aria-label="Pages">
          {PAGES.map((p) => (
            <button key={p.id} className={p.id === page ? 'tab active' : 'tab'} aria-current={p.id === page ? 'page' : undefined} onClick={() => setPage(p.id)}>
              {p.label}
            </button>
          ))}
        </nav>
        <StorageMeter />
      </header>
      <main>{page === 'corpora' ? <CorporaPage /> : <SearchPage />}</main>
    </div>
  );
}
