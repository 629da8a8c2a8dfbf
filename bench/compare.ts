// Run comparison (the Compare page's worker) and saved-run files, on Cranfield.
import {
  Bm25Retriever,
  buildQrelsMap,
  buildRunRecord,
  compareRunRankings,
  DEFAULT_MEASURES,
  evaluateRun,
  exportRunJson,
  loadCorpus,
  MemoryCorpusStore,
  OKAPI_BM25,
  parseRunJson,
  runMapOfRecord,
  runQueries,
} from '../src/core/index.ts';
import { directorySources } from '../src/cli/node-sources.ts';
import { figure, heading, medianMs, sharedDataset } from './harness.ts';

export async function benchCompare(): Promise<void> {
  heading('Run comparison and saved runs (Cranfield, k = 1000, 5 measures)');
  const dir = sharedDataset('cranfield');
  if (!dir) {
    console.log('cranfield: ../shared/data/cranfield not found, skipped');
    return;
  }
  const store = new MemoryCorpusStore();
  const { corpus, index } = await loadCorpus(await directorySources(dir), { name: 'cranfield' }, store);
  const queries = await store.getQueries(corpus.id);
  const qrels = buildQrelsMap(await store.getQrels(corpus.id));
  const record = (name: string, k1: number, b: number, run: Awaited<ReturnType<typeof runQueries>>) =>
    buildRunRecord({ name, corpusId: corpus.id, corpusName: corpus.name, pipeline: { kind: 'bm25', params: { ...OKAPI_BM25, k1, b } }, run, k: 1000, qrels });
  const base = record('okapi', 0.9, 0.4, await runQueries(new Bm25Retriever(index, OKAPI_BM25), queries, 1000));
  const other = record('tuned', 1.2, 0.75, await runQueries(new Bm25Retriever(index, { ...OKAPI_BM25, k1: 1.2, b: 0.75 }), queries, 1000));

  // Baseline: scoring both runs once (what any comparison must do at least).
  const evalMs = await medianMs(() => {
    evaluateRun(qrels, runMapOfRecord(base), DEFAULT_MEASURES);
    evaluateRun(qrels, runMapOfRecord(other), DEFAULT_MEASURES);
  });
  const compareMs = await medianMs(() => compareRunRankings(base.rankings, [{ key: 'tuned', rankings: other.rankings }], qrels, DEFAULT_MEASURES), 3);
  figure('scoring two runs (baseline)', `${evalMs.toFixed(1)} ms`, '—', null);
  figure('comparison, 10,000 permutations × 5 measures', `${compareMs.toFixed(0)} ms`, '< 2 s in a worker', compareMs < 2000);
  figure('  ratio to scoring', `${(compareMs / evalMs).toFixed(1)}×`, '—', null);

  const text = exportRunJson(base);
  const exportMs = await medianMs(() => exportRunJson(base));
  const parseMs = await medianMs(() => parseRunJson(text));
  figure(`run JSON export (${(text.length / 2 ** 20).toFixed(1)} MiB)`, `${exportMs.toFixed(0)} ms`, '< 1 s', exportMs < 1000);
  figure('run JSON import with validation', `${parseMs.toFixed(0)} ms`, '< 1 s', parseMs < 1000);
}
