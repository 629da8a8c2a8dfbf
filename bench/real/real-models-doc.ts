// docs/real-models.md for every real encoder: the figures live in docs/real-models.json (by encoder, then by
// collection), so a bench run for one encoder or a few collections replaces only those entries and keeps the
// rest. `npx tsx bench/real/real-models-doc.ts` re-renders the page from the store without measuring anything.
//
// Older benches wrote docs/real-models.md for one encoder only ("# Real models: <preset id> through …", one
// "## <collection>" section each). Such a file is newer than the store (this code never writes that form), so
// its sections are taken into the store, replacing the entries they name, before the page is written again.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REAL_ENCODERS } from '../../scripts/real-encoders.mjs';
import { renderSweepChart, sweepTable, type SweepResult } from './sweep-report.ts';

export interface Figure {
  name: string;
  value: string;
  goal: string;
  ok: boolean | null;
}

export interface CollectionEntry {
  /** When and under what load it was measured, in words (e.g. "2026-12-01, load average 6.1"). */
  measured: string;
  figures: Figure[];
  sweep?: SweepResult;
}

/** Preset id → collection → its entry. */
export type RealModelsStore = Record<string, Record<string, CollectionEntry>>;

const STORE = 'real-models.json';
const PAGE = 'real-models.md';

export function loadStore(docs: string): RealModelsStore {
  const file = path.join(docs, STORE);
  const store = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as RealModelsStore) : {};
  const page = path.join(docs, PAGE);
  if (fs.existsSync(page)) {
    const legacy = parseLegacyPage(fs.readFileSync(page, 'utf8'));
    if (legacy) store[legacy.presetId] = { ...store[legacy.presetId], ...legacy.collections };
  }
  return store;
}

const uncell = (text: string) => text.trim().replaceAll('\\|', '|');
const cells = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map(uncell);
const BASELINE_NAMES: Record<string, string> = { 'dense only': 'primary', 'BM25 only': 'complementary', 'RRF k=60': 'rrf', 'best CC': 'cc' };

/** The sections of a one-encoder page written by an older bench, or null when `text` is not such a page. */
export function parseLegacyPage(text: string): { presetId: string; collections: Record<string, CollectionEntry> } | null {
  const title = /^# Real models: (\S+) through the workbench/.exec(text);
  if (!title) return null;
  const date = /on (\d{4}-\d{2}-\d{2})/.exec(text)?.[1] ?? 'an earlier run';
  const collections: Record<string, CollectionEntry> = {};
  for (const section of text.split(/^## /m).slice(1)) {
    const lines = section.split('\n');
    const collection = lines[0]!.trim();
    const figures: Figure[] = [];
    const points: SweepResult['points'] = [];
    const baselines: SweepResult['baselines'] = [];
    let alphas: number[] = [];
    for (const line of lines.slice(1)) {
      if (!line.startsWith('|') || /^\|[-|]+\|$/.test(line.trim())) continue;
      const row = cells(line);
      if (row[0] === 'figure' || row[0] === 'baseline') continue;
      if (row[0] === 'GQR') {
        alphas = row.slice(1).map((a) => Number(a.replace('α', '')));
        continue;
      }
      const variant = /^(per-step|fixed), (gd|adam)$/.exec(row[0]!);
      const pair = (cell: string) => {
        const [ndcg, recall] = cell.split('/').map(Number);
        return { 'nDCG@10': ndcg!, 'R@100': recall! };
      };
      if (variant) {
        row.slice(1).forEach((cell, i) => points.push({ settings: { target: variant[1]!, optimizer: variant[2]!, mixtureAlpha: alphas[i]! }, measures: pair(cell) }));
        continue;
      }
      const baseline = /^(dense only|BM25 only|RRF k=60|best CC)(?: \(weight ([\d.]+)\))?$/.exec(row[0]!);
      if (baseline && row.length === 2) {
        baselines.push({ name: BASELINE_NAMES[baseline[1]!]!, measures: pair(row[1]!), ...(baseline[2] ? { weight: Number(baseline[2]) } : {}) });
        continue;
      }
      if (row.length === 4) figures.push({ name: row[0]!, value: row[1]!, goal: row[2]!, ok: row[3] === '' ? null : row[3] === 'yes' });
    }
    collections[collection] = { measured: date, figures, ...(points.length > 0 ? { sweep: { collection, points, baselines } } : {}) };
  }
  return { presetId: title[1]!, collections };
}

const cell = (text: string) => text.replaceAll('|', '\\|');

function nameOf(presetId: string): string {
  return REAL_ENCODERS.find((e) => e.presetId === presetId)?.name ?? presetId;
}

function slugOf(presetId: string): string {
  return REAL_ENCODERS.find((e) => e.presetId === presetId)?.slug ?? presetId.replace(/\W+/g, '-').toLowerCase();
}

/** The whole page: one section per encoder (in REAL_ENCODERS order), one subsection per collection. */
export function renderPage(store: RealModelsStore): string {
  const order = [...REAL_ENCODERS.map((e) => e.presetId), ...Object.keys(store).filter((id) => !REAL_ENCODERS.some((e) => e.presetId === id))];
  const lines = [
    '# Real models: the real encoders through the workbench beside their reference implementations',
    '',
    'Written by `npm run bench -- real` (bench/real-models.ts, bench/real/real-models-doc.ts; the figures are kept in',
    '`docs/real-models.json`, so a run for one encoder or some collections replaces only those). Peers (bench/peers/,',
    "Python): sentence-transformers `encode` + exact cosine, pytrec_eval (trec_eval's code), bm25s.",
    '',
  ];
  for (const presetId of order.filter((id) => store[id] && Object.keys(store[id]!).length > 0)) {
    lines.push(`## ${nameOf(presetId)} (${presetId})`, '');
    for (const [collection, entry] of Object.entries(store[presetId]!)) {
      lines.push(`### ${collection}`, '', `Measured ${entry.measured}.`, '', '| figure | workbench / peer | goal | met |', '|---|---|---|---|');
      for (const f of entry.figures) lines.push(`| ${cell(f.name)} | ${cell(f.value)} | ${cell(f.goal)} | ${f.ok === null ? '' : f.ok ? 'yes' : '**no**'} |`);
      if (entry.sweep) {
        lines.push('', `GQR α sweep (dense ${nameOf(presetId)} primary, BM25 complementary), nDCG@10 / R@100 at top 100:`, '');
        lines.push(sweepTable([entry.sweep]).split('\n').slice(2).join('\n'));
        lines.push('', `![GQR α sweep on ${collection}, ${nameOf(presetId)}](gqr-real-${slugOf(presetId)}-${collection}.png)`);
      }
      lines.push('');
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Saves the store and writes the page; for each encoder in `charted` also its sweep table
 * (docs/gqr-real-<slug>.md) and charts (docs/gqr-real-<slug>.png, one panel per collection, and
 * docs/gqr-real-<slug>-<collection>.png). Other encoders' chart files are left as they are.
 */
export async function writeRealModelsDocs(docs: string, store: RealModelsStore, charted: readonly string[]): Promise<void> {
  fs.writeFileSync(path.join(docs, STORE), `${JSON.stringify(store, null, 2)}\n`);
  fs.writeFileSync(path.join(docs, PAGE), renderPage(store));
  for (const presetId of charted) {
    const sweeps = Object.values(store[presetId] ?? {}).flatMap((entry) => (entry.sweep ? [entry.sweep] : []));
    if (sweeps.length === 0) continue;
    const slug = slugOf(presetId);
    const name = nameOf(presetId);
    fs.writeFileSync(path.join(docs, `gqr-real-${slug}.md`), `${sweepTable(sweeps)}\n`);
    await renderSweepChart(sweeps, path.join(docs, `gqr-real-${slug}.png`), `GQR on real data: ${name} primary, BM25 complementary`);
    for (const sweep of sweeps) {
      await renderSweepChart([sweep], path.join(docs, `gqr-real-${slug}-${sweep.collection}.png`), `GQR on ${sweep.collection}: ${name} primary, BM25 complementary`);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const docs = path.resolve(import.meta.dirname, '../../docs');
  await writeRealModelsDocs(docs, loadStore(docs), []);
  console.log(`wrote ${path.join(docs, PAGE)} from ${path.join(docs, STORE)}`);
}
