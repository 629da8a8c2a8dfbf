// BM25 quality on the shared collections, and the speed of loading and restoring an index.
import fs from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import {
  Bm25Index,
  Bm25Retriever,
  buildQrelsMap,
  evaluateRun,
  loadCorpus,
  MemoryCorpusStore,
  MINISEARCH_BM25,
  OKAPI_BM25,
  runQueries,
  type Bm25Params,
  type CorpusDocument,
} from '../src/core/index.ts';
import { directorySources } from '../src/cli/node-sources.ts';
import { figure, heading, medianMs, sharedDataset } from './harness.ts';

const REFERENCE: Record<string, Record<string, string>> = {
  cranfield: { okapi: '.350 / .288 / .722', minisearch: '.291 / .232 / .655' },
  npl: { okapi: '.439 / .286 / .618', minisearch: '.354 / .201 / .449' },
};
const GOAL_NDCG: Record<string, number> = { cranfield: 0.345, npl: 0.434 };

export async function benchBm25(): Promise<void> {
  heading('BM25 quality (nDCG@10 / AP / R@100; reference = Lucene-style BM25 in ../shared/data/README.md)');
  for (const name of ['cranfield', 'npl']) {
    const dir = sharedDataset(name);
    if (!dir) {
      console.log(`${name}: ../shared/data/${name} not found, skipped`);
      continue;
    }
    const store = new MemoryCorpusStore();
    const { corpus, index } = await loadCorpus(await directorySources(dir), { name }, store);
    const queries = await store.getQueries(corpus.id);
    const qrels = buildQrelsMap(await store.getQrels(corpus.id));
    // MiniSearch's defaults: BM25+ with the matched-terms boost, no stop list, no stemming.
    const plainIndex = Bm25Index.create({ stopWords: 'none', stemming: 'none' });
    plainIndex.addAll(await store.listDocuments(corpus.id, { limit: Number.MAX_SAFE_INTEGER }));
    const settings: Array<[string, Bm25Index, Bm25Params]> = [
      ['okapi', index, OKAPI_BM25],
      ['minisearch', plainIndex, MINISEARCH_BM25],
    ];
    for (const [label, searchIndex, params] of settings) {
      const run = await runQueries(new Bm25Retriever(searchIndex, params), queries, 1000);
      const { aggregate } = evaluateRun(qrels, run, ['nDCG@10', 'AP', 'R@100']);
      const value = `${aggregate['nDCG@10']!.toFixed(4)} / ${aggregate.AP!.toFixed(3)} / ${aggregate['R@100']!.toFixed(3)}`;
      const okapi = label === 'okapi';
      figure(
        `${name} ${okapi ? 'Okapi k1 0.9 b 0.4' : 'MiniSearch defaults'} (ref ${REFERENCE[name]![label]})`,
        value,
        okapi ? `nDCG@10 ≥ ${GOAL_NDCG[name]}` : 'comparison only',
        okapi ? aggregate['nDCG@10']! >= GOAL_NDCG[name]! : null,
      );
    }
  }

  const npl = sharedDataset('npl');
  if (!npl) return;
  heading('Loading speed on npl (11,429 documents), medians of 5 runs after a warm-up');
  const docs: CorpusDocument[] = fs
    .readFileSync(path.join(npl, 'corpus.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const d = JSON.parse(line) as { _id: string; title: string; text: string };
      return { id: d._id, title: d.title, text: d.text };
    });
  const corpusOnly = (await directorySources(npl)).filter((s) => s.path === 'corpus.jsonl');

  const raw = await medianMs(() => new MiniSearch({ fields: ['title', 'text'] }).addAll(docs));
  const pipeline = await medianMs(() => loadCorpus(corpusOnly, { name: 'npl' }, new MemoryCorpusStore()));
  figure('raw MiniSearch addAll (already parsed documents)', `${raw.toFixed(0)} ms`, 'baseline', null);
  figure('our pipeline: stream + parse + store + index + serialise', `${pipeline.toFixed(0)} ms`, '', null);
  figure('our throughput ÷ raw addAll throughput', `${(raw / pipeline).toFixed(2)}×`, '≥ 0.90×', raw / pipeline >= 0.9);

  const store = new MemoryCorpusStore();
  const { corpus } = await loadCorpus(corpusOnly, { name: 'npl' }, store);
  const stored = (await store.getBm25Index(corpus.id))!;
  // structuredClone stands for the copy IndexedDB makes when the record is read back.
  const restore = await medianMs(() => Bm25Index.restore(structuredClone(stored)));
  const scratch = await medianMs(async () => {
    const index = Bm25Index.create(corpus.analyzer);
    let after: string | undefined;
    for (;;) {
      const page = await store.listDocuments(corpus.id, { after, limit: 2000 });
      if (page.length === 0) break;
      index.addAll(page);
      after = page.at(-1)!.id;
    }
  });
  figure('index from scratch (stored documents → index)', `${scratch.toFixed(0)} ms`, 'baseline', null);
  figure('restore from storage (stored index → index)', `${restore.toFixed(0)} ms`, '', null);
  figure('restore ÷ index from scratch', `${(restore / scratch).toFixed(2)}×`, '≤ 0.20×', restore / scratch <= 0.2);
}
