import { useSyncExternalStore } from 'react';

// Links between pages carry what they are about in the hash's query string: `#/compare?query=q01`,
// `#/gqr?query=q01&text=…`, `#/hds?question=…`. The page id is the part before `?` (app-store.ts).

/** The href of a page with parameters (empty values left out). */
export function pageHref(page: string, params: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const query = search.toString();
  return `#/${page}${query ? `?${query}` : ''}`;
}

function subscribe(onChange: () => void): () => void {
  globalThis.addEventListener?.('hashchange', onChange);
  return () => globalThis.removeEventListener?.('hashchange', onChange);
}

const hashSearch = () => globalThis.location?.hash.split('?')[1] ?? '';

/** One parameter of the current page's link (null when absent); follows later links to the same page. */
export function usePageParam(name: string): string | null {
  const search = useSyncExternalStore(subscribe, hashSearch, () => '');
  return new URLSearchParams(search).get(name);
}
