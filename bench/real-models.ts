// Section "real models" of `npm run bench`: each real encoder (from `npm run models`) through the workbench beside
// its reference implementations (bench/peers/, Python): sentence-transformers vectors, a dense run with exact
// cosine, pytrec_eval, bm25s. Skipped with a message when the models or the peers are absent.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Bm25Retriever, buildQrelsMap, defaultLengthSortWindow, embedCorpus, evaluateRun, loadCorpus, loadEmbedder, loadVectorMatrix, MemoryCorpusStore, MemoryVectorStore, OKAPI_BM25, runQueries, type CorpusDocument, type Embedder } from '../src/core/index.ts';
import { storeCorpus } from '../src/test-support/stored-corpus.ts';
import { directorySources } from '../src/cli/node-sources.ts';
import { runPeer, venvPython } from '../scripts/python-env.mjs';
import { figure, heading, sharedDataset } from './harness.ts';
import { CACHE_DIR, fidelityTexts, realModelMissing, referenceVectors, ROOT, rowCosines, selectedEncoders, workbenchVectors, worstCosine, type RealEncoder } from './real/reference-encoder.ts';
import { encoderFolder, sentenceTransformersFolder } from '../scripts/real-encoders.mjs';
import { sweepTable, type SweepResult } from './real/sweep-report.ts';
import { loadStore, writeRealModelsDocs, type Figure } from './real/real-models-doc.ts';

// REAL_ENCODERS=mpnet (slugs or preset ids of scripts/real-encoders.mjs) runs only those encoders.
// REAL_COLLECTIONS=adi,cranfield narrows the section (e.g. for a quick try); REAL_QUERIES=50 keeps the first 50
// judged queries of each collection (the whole corpus stays). Document vectors are cached in .tmp/real-models/
// vectors (dsw --vector-cache, keyed by the model's files and the corpus), so a re-run does not embed again.
const narrowed = process.env.REAL_COLLECTIONS?.split(',');
const QUERY_LIMIT = process.env.REAL_QUERIES ? Number(process.env.REAL_QUERIES) : Infinity;
const VECTOR_CACHE = path.join(CACHE_DIR, 'vectors');
// REAL_FIDELITY=0 skips the per-text cosine check (its figures do not change between runs of the same model).
const FIDELITY = process.env.REAL_FIDELITY !== '0';
const FIDELITY_COLLECTIONS = narrowed ?? ['adi', 'cranfield', 'npl', 'hotpotqa-500'];
const RETRIEVAL_COLLECTIONS = narrowed ?? ['cranfield', 'hotpotqa-500', 'npl']; // smallest corpus first
const MEASURES = ['nDCG@10', 'R@100', 'AP'] as const;

/** Every figure of the section, by encoder and collection, for docs/real-models.md. */
const rows = new Map<string, Map<string, Figure[]>>();
let current = '';
function record(collection: string, name: string, value: string, goal: string, ok: boolean | null): void {
  figure(name, value, goal, ok);
  const byCollection = rows.get(current) ?? new Map<string, Figure[]>();
  byCollection.set(collection, [...(byCollection.get(collection) ?? []), { name: name.replace(`${collection} `, ''), value, goal, ok }]);
  rows.set(current, byCollection);
}
const ALPHAS = '0,0.25,0.5,0.75,1';

export async function benchRealModels(): Promise<void> {
  heading('real models: the workbench beside sentence-transformers, pytrec_eval and bm25s (bench/peers/)');
  for (const encoder of selectedEncoders()) {
    current = encoder.presetId;
    const missing = realModelMissing(encoder);
    if (missing) {
      console.log(`${encoder.presetId}: skipped, ${missing}`);
      continue;
    }
    if (FIDELITY) await fidelity(encoder);
    if (process.env.REAL_BATCH_SPEED !== '0') await lengthSortedSpeed(encoder);
    const sweeps: SweepResult[] = [];
    for (const name of RETRIEVAL_COLLECTIONS) {
      const shared = sharedDataset(name);
      if (!shared) {
        console.log(`${name}: ../shared/data/${name} not found, skipped`);
        continue;
      }
      const dir = withQueryLimit(name, shared);
      await denseAndMetrics(encoder, name, dir);
      await bm25(encoder, name, dir);
      sweeps.push(sweep(encoder, name, dir));
      await report(encoder, sweeps); // after each collection, so a long run leaves the finished part behind
    }
    if (sweeps.length === 0 && rows.get(encoder.presetId)) await report(encoder, sweeps); // fidelity figures only
  }
}

// REAL_BATCH_SPEED=0 skips the length-sorted batches figures (q8 on SPEED_DOCS passages five times, fp32 on 128 twice).
const SPEED_DOCS = 512;
/**
 * embedCorpus with length-sorted windows (the default) against id order (lengthSortWindow 1), same documents: speed
 * with q8, and the vectors of both orders with fp32 (q8 quantises activations per batch, so its vectors depend on
 * which texts share a batch, in either order; fp32 must not).
 */
async function lengthSortedSpeed(encoder: RealEncoder): Promise<void> {
  const dir = sharedDataset('hotpotqa-500');
  if (!dir) return;
  const docs: CorpusDocument[] = fs.readFileSync(path.join(dir, 'corpus.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).slice(0, SPEED_DOCS)
    .map((l) => JSON.parse(l) as { _id: string; title?: string; text: string }).map((d) => ({ id: d._id, title: d.title ?? '', text: d.text }));
  const stores = { all: new MemoryCorpusStore(), few: new MemoryCorpusStore() };
  await storeCorpus(stores.all, 'speed', docs);
  await storeCorpus(stores.few, 'speed', docs.slice(0, 128));
  const localModelPath = `${path.dirname(path.dirname(encoderFolder(ROOT, encoder)))}${path.sep}`;
  const name = 'hotpotqa-500';
  const embed = async (embedder: Embedder, corpora: MemoryCorpusStore, lengthSortWindow: number | undefined) => {
    const vectors = new MemoryVectorStore();
    const t0 = performance.now();
    const set = await embedCorpus(embedder, corpora, vectors, { corpusId: 'speed', source: { location: 'path', modelId: encoder.presetId }, lengthSortWindow });
    return { ms: performance.now() - t0, matrix: await loadVectorMatrix(vectors, set) };
  };
  const q8 = await loadEmbedder({ modelId: encoder.presetId, localModelPath, dtype: 'q8' });
  try {
    await embed(q8, stores.all, 1); // warm-up
    // Interleaved, best of two each: on a shared machine the minimum is the least disturbed measurement.
    const idOrder: number[] = [];
    const sorted: number[] = [];
    for (let i = 0; i < 2; i++) {
      idOrder.push((await embed(q8, stores.all, 1)).ms);
      sorted.push((await embed(q8, stores.all, undefined)).ms);
    }
    const rate = (ms: number[]) => (docs.length * 1000) / Math.min(...ms);
    record(name, `${name} q8, first ${docs.length} passages: embedCorpus in id order (batches of ${q8.batchSize})`, `${rate(idOrder).toFixed(1)} docs/s`, 'baseline', null);
    record(name, `${name} q8: length-sorted windows of ${defaultLengthSortWindow(q8.batchSize)} (the default)`, `${rate(sorted).toFixed(1)} docs/s`, `≥ 1.2× id order (${(rate(sorted) / rate(idOrder)).toFixed(2)}×)`, rate(sorted) >= 1.2 * rate(idOrder));
  } finally {
    await q8.dispose();
  }
  const fp32 = await loadEmbedder({ modelId: encoder.presetId, localModelPath, dtype: 'fp32' });
  try {
    const [a, b] = [(await embed(fp32, stores.few, 1)).matrix, (await embed(fp32, stores.few, undefined)).matrix];
    const flat = (m: typeof a) => {
      const out = new Float32Array(m.size * m.dimensions);
      for (let r = 0; r < m.size; r++) out.set(m.rows.row(r), r * m.dimensions);
      return out;
    };
    const worst = a.ids.join() === b.ids.join() ? Math.min(...rowCosines(flat(a), flat(b), a.size)) : -1;
    record(name, `${name} fp32, first 128 passages: worst cosine, length-sorted vs id-order vectors`, worst.toFixed(6), '≥ 0.99999', worst >= 0.99999);
  } finally {
    await fp32.dispose();
  }
}

async function fidelity(encoder: RealEncoder): Promise<void> {
  console.log(`\n${encoder.presetId} vectors (transformers.js, Node) vs sentence-transformers encode, per text:`);
  for (const name of FIDELITY_COLLECTIONS) {
    const dir = sharedDataset(name);
    if (!dir) continue;
    const texts = fidelityTexts(dir);
    const reference = referenceVectors(encoder, texts);
    for (const [dtype, floor] of [['fp32', 0.9999], ['q8', 0.99]] as const) {
      const worst = worstCosine(rowCosines(await workbenchVectors(encoder, dtype, texts), reference, texts.length), texts);
      record(name, `${name} ${dtype}: worst cosine of ${texts.length} texts`, worst.cosine.toFixed(6), `≥ ${floor}`, worst.cosine >= floor);
    }
  }
}

/** The collection itself, or (REAL_QUERIES) a copy with its first judged queries only. */
function withQueryLimit(name: string, dir: string): string {
  if (!Number.isFinite(QUERY_LIMIT)) return dir;
  const out = path.join(CACHE_DIR, 'subsets', `${name}-${QUERY_LIMIT}q`);
  const qrels = fs.readFileSync(path.join(dir, 'qrels/test.tsv'), 'utf8').split('\n');
  const judged = new Set(qrels.slice(1).map((line) => line.split('\t')[0]).filter(Boolean));
  const queries = fs.readFileSync(path.join(dir, 'queries.jsonl'), 'utf8').split('\n').filter((l) => l.trim() && judged.has(JSON.parse(l)._id)).slice(0, QUERY_LIMIT);
  const kept = new Set(queries.map((l) => JSON.parse(l)._id as string));
  fs.mkdirSync(path.join(out, 'qrels'), { recursive: true });
  fs.copyFileSync(path.join(dir, 'corpus.jsonl'), path.join(out, 'corpus.jsonl'));
  fs.writeFileSync(path.join(out, 'queries.jsonl'), `${queries.join('\n')}\n`);
  fs.writeFileSync(path.join(out, 'qrels/test.tsv'), `${[qrels[0], ...qrels.slice(1).filter((line) => kept.has(line.split('\t')[0]!))].join('\n')}\n`);
  return out;
}

function dsw(args: string[]): string {
  return execFileSync(process.execPath, [path.join(ROOT, 'bin/dsw.mjs'), ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
}

type Scores = { aggregate: Record<string, number>; perQuery: Record<string, Record<string, number>> };

const run = promisify(execFile);

/** Seconds a command took and its standard output. */
async function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<{ stdout: string; seconds: number }> {
  const started = performance.now();
  const { stdout } = await run(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  return { stdout, seconds: (performance.now() - started) / 1000 };
}

async function denseAndMetrics(encoder: RealEncoder, name: string, dir: string): Promise<void> {
  const work = path.join(CACHE_DIR, encoder.slug, name);
  fs.mkdirSync(work, { recursive: true });
  const ours = path.join(work, 'dense-workbench.trec');
  const theirs = path.join(work, 'dense-peer.trec');
  const model = path.relative(ROOT, encoderFolder(ROOT, encoder));
  // The two sides embed the corpus at the same time (each its own process), so a first run takes half as long.
  const peerEnv = { ...process.env, HF_HUB_OFFLINE: '1', TRANSFORMERS_OFFLINE: '1', TOKENIZERS_PARALLELISM: 'false' };
  const [workbenchRun, peerRun] = await Promise.all([
    timed(process.execPath, [path.join(ROOT, 'bin/dsw.mjs'), 'run', '--dataset', dir, '--pipeline', 'dense', '--model', model, '--top-k', '1000', '--out', ours, '--vector-cache', VECTOR_CACHE], ROOT),
    timed(venvPython(ROOT)!, [path.join(ROOT, 'bench/peers/dense_run.py'), sentenceTransformersFolder(ROOT, encoder), dir, theirs], path.join(ROOT, 'bench/peers'), peerEnv),
  ]);
  const oursSeconds = workbenchRun.seconds;
  const peerSeconds = peerRun.seconds;
  const peer = JSON.parse(peerRun.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
  const workbench = (JSON.parse(dsw(['eval', '--qrels', path.join(dir, 'qrels/test.tsv'), '--run', ours, '--measures', MEASURES.join(','), '--json'])) as Scores).aggregate;
  console.log(`\n${name}: dense ${encoder.name}, workbench (dsw run, ${oursSeconds.toFixed(0)} s) / peer (sentence-transformers + exact cosine + pytrec_eval, ${peerSeconds.toFixed(0)} s)`);
  record(name, `${name} dense run seconds workbench / peer`, `${oursSeconds.toFixed(0)} / ${peerSeconds.toFixed(0)}`, 'printed (embedding included unless cached)', null);
  for (const m of MEASURES) {
    const diff = Math.abs(workbench[m]! - peer[m]!);
    record(name, `${name} dense ${m}`, `${workbench[m]!.toFixed(4)} / ${peer[m]!.toFixed(4)}`, '|Δ| ≤ 0.002', diff <= 0.002);
  }
  // The same run files scored by dsw eval and by pytrec_eval (trec_eval's code): every query, every measure.
  for (const [label, run] of [['workbench run', ours], ['peer run', theirs]] as const) {
    const a = JSON.parse(dsw(['eval', '--qrels', path.join(dir, 'qrels/test.tsv'), '--run', run, '--measures', 'nDCG@10,R@100,AP,P@10', '--per-query', '--keep-identical-ids', '--json'])) as Scores;
    const b = JSON.parse(runPeer(ROOT, 'trec_eval.py', [dir, run], { quiet: true })) as Scores;
    let worst = 0;
    let compared = 0;
    for (const [qid, values] of Object.entries(b.perQuery)) {
      for (const [measure, value] of Object.entries(values)) {
        const ourValue = a.perQuery[qid]?.[measure];
        worst = Math.max(worst, ourValue === undefined ? Infinity : Math.abs(ourValue - value));
        compared++;
      }
    }
    record(name, `${name} dsw eval vs pytrec_eval, ${label}`, `${worst.toExponential(1)} max |Δ|`, `≤ 1e-9 (${compared} values)`, worst <= 1e-9);
  }
}

async function bm25(encoder: RealEncoder, name: string, dir: string): Promise<void> {
  const store = new MemoryCorpusStore();
  const { corpus, index } = await loadCorpus(await directorySources(dir), { name }, store);
  const queries = await store.getQueries(corpus.id);
  const retriever = new Bm25Retriever(index, OKAPI_BM25);
  await runQueries(retriever, queries.slice(0, 5), 1000);
  const started = performance.now();
  const run = await runQueries(retriever, queries, 1000);
  const ourQps = queries.length / ((performance.now() - started) / 1000);
  const ours = evaluateRun(buildQrelsMap(await store.getQrels(corpus.id)), run, ['nDCG@10']).aggregate['nDCG@10']!;
  const peer = JSON.parse(runPeer(ROOT, 'bm25_run.py', [dir, path.join(CACHE_DIR, encoder.slug, name, 'bm25-peer.trec')], { quiet: true })) as {
    aggregate: Record<string, number>;
    queriesPerSecond: number;
  };
  record(name, `${name} BM25 nDCG@10 workbench / bm25s`, `${ours.toFixed(4)} / ${peer.aggregate['nDCG@10']!.toFixed(4)}`, '|Δ| ≤ 0.005', Math.abs(ours - peer.aggregate['nDCG@10']!) <= 0.005);
  record(name, `${name} BM25 queries/s workbench / bm25s`, `${ourQps.toFixed(0)} / ${peer.queriesPerSecond.toFixed(0)} = ${(ourQps / peer.queriesPerSecond).toFixed(2)}×`, 'printed', null);
}

function sweep(encoder: RealEncoder, name: string, dir: string): SweepResult {
  const model = path.relative(ROOT, encoderFolder(ROOT, encoder));
  const json = dsw([
    'sweep', '--dataset', dir, '--pipeline', 'gqr', '--model', model, '--measures', 'nDCG@10,R@100', '--top-k', '100', '--vector-cache', VECTOR_CACHE,
    '--grid', 'target=per-step,fixed', '--grid', 'optimizer=gd,adam', '--grid', `mixtureAlpha=${ALPHAS}`, '--json',
  ]);
  const parsed = JSON.parse(json) as SweepResult;
  fs.writeFileSync(path.join(CACHE_DIR, encoder.slug, name, 'gqr-sweep.json'), json);
  // What the docs keep of it: each point's settings and measures, the baselines.
  return {
    collection: name,
    points: parsed.points.map((p) => ({ settings: p.settings, measures: p.measures })),
    baselines: parsed.baselines.map((b) => ({ name: b.name, measures: b.measures, ...(b.weight !== undefined ? { weight: b.weight } : {}) })),
  };
}

async function report(encoder: RealEncoder, sweeps: SweepResult[]): Promise<void> {
  if (sweeps.length > 0) {
    console.log(`\nGQR (dense ${encoder.presetId} primary, BM25 complementary), nDCG@10 / R@100, α = mixtureAlpha:\n${sweepTable(sweeps)}`);
  }
  const docs = path.join(ROOT, 'docs');
  const store = loadStore(docs);
  const measured = `${new Date().toISOString().slice(0, 10)}, load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores${Number.isFinite(QUERY_LIMIT) ? `, first ${QUERY_LIMIT} judged queries` : ''}`;
  const entries = { ...store[encoder.presetId] };
  for (const [collection, figures] of rows.get(encoder.presetId) ?? []) {
    const sweep = sweeps.find((s) => s.collection === collection);
    // Figures this run did not measure (REAL_FIDELITY=0, or fidelity only) are kept from the earlier entry.
    const kept = (entries[collection]?.figures ?? []).filter((f) => !figures.some((g) => g.name === f.name));
    // Kept figures keep their own date: "<this run>, the first N figures; the others <the earlier entry's date>".
    const earlier = entries[collection]?.measured.split('; the others ').at(-1);
    const when = kept.length > 0 && earlier ? `${measured}, the first ${figures.length} figure${figures.length === 1 ? '' : 's'}; the others ${earlier}` : measured;
    entries[collection] = { measured: when, figures: [...figures, ...kept], ...(sweep ? { sweep } : entries[collection]?.sweep ? { sweep: entries[collection]!.sweep } : {}) };
  }
  store[encoder.presetId] = entries;
  await writeRealModelsDocs(docs, store, sweeps.length > 0 ? [encoder.presetId] : []);
  console.log(`docs/real-models.md (figures in docs/real-models.json)${sweeps.length > 0 ? `, charts docs/gqr-real-${encoder.slug}.png and docs/gqr-real-${encoder.slug}-<collection>.png, table docs/gqr-real-${encoder.slug}.md` : ''}`);
}
