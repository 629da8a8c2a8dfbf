import corpusUrl from '../../../sample-data/meridian/corpus.jsonl?url';
import queriesUrl from '../../../sample-data/meridian/queries.jsonl?url';
import qrelsUrl from '../../../sample-data/meridian/qrels/test.tsv?url';
import type { PickedFile } from '../../workers/corpus-worker-api.ts';
import { useAppStore } from '../shared/app-store.ts';
import { startLoad } from '../shared/load-store.ts';

export const SAMPLE_CORPUS_NAME = 'Meridian Coast (sample)';

/** The bundled sample corpus, fetched from the app itself, as files for the ordinary loading path. */
export async function sampleCorpusFiles(): Promise<PickedFile[]> {
  const parts: Array<[string, string]> = [
    ['meridian/corpus.jsonl', corpusUrl],
    ['meridian/queries.jsonl', queriesUrl],
    ['meridian/qrels/test.tsv', qrelsUrl],
  ];
  return Promise.all(
    parts.map(async ([path, url]) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`Could not read the sample corpus file ${path} (HTTP ${response.status})`);
      const name = path.split('/').pop()!;
      return { path, file: new File([await response.blob()], name) };
    }),
  );
}

/** Loads the sample corpus through the ordinary loading path and selects it. */
export async function loadSampleCorpus(): Promise<void> {
  const corpus = await startLoad(await sampleCorpusFiles(), { name: SAMPLE_CORPUS_NAME });
  if (corpus) useAppStore.getState().setCorpusId(corpus.id);
}
