import type { ReactNode } from 'react';
import { useAppStore } from './app-store.ts';

/** What a page that works on a corpus shows while there is none: a way to load one. */
export function NoCorpusYet({ action, children }: { action: string; children?: ReactNode }) {
  const setPage = useAppStore((s) => s.setPage);
  return (
    <section className="panel">
      <p>
        There is no corpus to {action} yet. <button onClick={() => setPage('corpora')}>Load one</button>
        {children}
      </p>
    </section>
  );
}
