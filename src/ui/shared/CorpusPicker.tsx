import { useEffect } from 'react';
import { useAppStore } from './app-store.ts';
import { useCorpora } from './corpora.ts';

/** Chooses the corpus the page works on; picks the newest when none is chosen yet. */
export function CorpusPicker() {
  const corpora = useCorpora();
  const { corpusId, setCorpusId } = useAppStore();
  useEffect(() => {
    const list = corpora.data;
    if (list && list.length > 0 && !list.some((c) => c.id === corpusId)) setCorpusId(list[0]!.id);
  }, [corpora.data, corpusId, setCorpusId]);
  if (!corpora.data?.length) return null;
  return (
    <label>
      Corpus{' '}
      <select aria-label="Corpus" value={corpusId ?? ''} onChange={(e) => setCorpusId(e.target.value)}>
        {corpora.data.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </label>
  );
}
