// Real LLM: `dsw hds` on the first hotpotqa-500 questions with the model of `npm run models` served on loopback —
// HDS, the single-shot RAG / IRCoT / decomposition baselines and a max_search_calls sweep; writes the table
// (docs/hds-real.md) and the scaling chart (docs/hds-real-scaling.png).
// Question counts: HDS_REAL_QUESTIONS (HDS, default 50), HDS_REAL_SWEEP_QUESTIONS and HDS_REAL_BASELINE_QUESTIONS
// (default: the same). Each configuration's runs are kept in .tmp/hds-real/ and reused by a later bench run with the
// same model and counts (HDS_REAL_FRESH=1 runs them again). DSW_LLM_MODEL picks the model (scripts/llm-paths.mjs);
// HDS_REAL_PORT the loopback port of the server the bench starts (default 8182). HDS_REAL_STOP_AT=<ISO time or HH:MM UTC> stops the running
// configuration then (its finished questions are kept, as dsw hds does on Ctrl-C) and skips the rest. `HDS_REAL_ONLY=1 npm run bench` runs this section alone.
import fs from 'node:fs';
import path from 'node:path';
import { aggregateBatch, protocolBreakage, type BatchAggregate, type BatchItem, type HdsRun, type ProtocolBreakage } from '../src/core/index.ts';
import { main } from '../src/cli/main.ts';
import { heading, sharedDataset } from './harness.ts';
import { lineChartSvg } from './charts/line-chart.ts';
import { svgToPng } from './charts/to-png.ts';
import { REAL_LLM_MODEL, realLlmMissing, startLlmServer } from './real-llm.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CACHE = path.join(ROOT, '.tmp/hds-real');
const DOCS = path.join(ROOT, 'docs');
const BUDGETS = [1, 2, 4, 8];
const BASELINES = ['single-shot', 'ircot', 'decomposition'];
/** Deterministic decoding, and a bound on a reply (a small model may otherwise run on to the context limit). */
const DECODING = ['--temperature', '0', '--max-tokens', '256'];
/**
 * The system message sent before the reference prompts (a chat setting: the prompts stay the reference's). Without it
 * the small model answers the plan prompt by echoing its two actions; HDS_REAL_SYSTEM_PROMPT=none sends none.
 */
const SYSTEM_PROMPT_FILE = path.join(ROOT, 'bench/real/hds-system-prompt.txt');
function systemPromptArgs(): string[] {
  return process.env.HDS_REAL_SYSTEM_PROMPT === 'none' ? [] : ['--system-prompt-file', SYSTEM_PROMPT_FILE];
}

interface Config {
  id: string;
  questions: number;
  args: string[];
}

interface ConfigResult {
  config: Config;
  items: BatchItem[];
  wallMs: number;
  reused: boolean;
}

/** The time HDS_REAL_STOP_AT names (`HH:MM` is today, UTC), or null. */
function stopAt(): number | null {
  const raw = process.env.HDS_REAL_STOP_AT;
  if (!raw) return null;
  const hhmm = /^(\d{1,2}):(\d{2})$/.exec(raw);
  const t = hhmm ? new Date().setUTCHours(Number(hhmm[1]), Number(hhmm[2]), 0, 0) : Date.parse(raw);
  if (!Number.isFinite(t)) throw new Error(`HDS_REAL_STOP_AT must be HH:MM (UTC) or an ISO time, got "${raw}"`);
  return t;
}

function count(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0, got "${raw}"`);
  return n;
}

async function runConfig(dataset: string, baseUrl: string, config: Config): Promise<ConfigResult> {
  fs.mkdirSync(CACHE, { recursive: true });
  const system = process.env.HDS_REAL_SYSTEM_PROMPT === 'none' ? '-no-system' : '';
  const file = path.join(CACHE, `${REAL_LLM_MODEL}${system}-${config.id}-${config.questions}.json`);
  const load = () => {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { runs: Array<{ items: BatchItem[] }>; benchWallMs?: number };
    return { items: saved.runs[0]!.items, wallMs: saved.benchWallMs ?? 0 };
  };
  if (fs.existsSync(file) && process.env.HDS_REAL_FRESH !== '1') return { config, ...load(), reused: true };
  const argv = ['hds', '--dataset', dataset, '--questions-from-dataset', '--limit', String(config.questions), '--base-url', baseUrl,
    '--model', REAL_LLM_MODEL, ...DECODING, ...systemPromptArgs(), ...config.args, '--out', file, '--json'];
  console.log(`dsw ${argv.join(' ')}`);
  const t0 = performance.now();
  const code = await main(argv, {
    out: () => {},
    err: (text) => process.stderr.write(`  ${text}`),
    cwd: ROOT,
    env: process.env,
  });
  const wallMs = performance.now() - t0;
  if (!fs.existsSync(file)) throw new Error(`dsw hds exited with ${code} and wrote no runs`);
  const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
  saved.benchWallMs = wallMs;
  fs.writeFileSync(file, JSON.stringify(saved));
  return { config, items: load().items, wallMs, reused: false };
}

interface Row {
  label: string;
  aggregate: BatchAggregate;
  breakage: ProtocolBreakage | null;
}

function row(label: string, items: readonly BatchItem[], variantId: string, firstQuestions?: number): Row {
  const questionIds = [...new Set(items.map((i) => i.questionId))].slice(0, firstQuestions);
  const mine = items.filter((i) => i.variantId === variantId && questionIds.includes(i.questionId));
  const hdsRuns = mine.map((i) => i.run).filter((r): r is HdsRun => r?.kind === 'hds');
  return { label, aggregate: aggregateBatch(mine, variantId), breakage: variantId.startsWith('hds') ? protocolBreakage(hdsRuns) : null };
}

const f3 = (v: number | null) => (v === null ? '—' : v.toFixed(3));

function tableLines(rows: readonly Row[]): string[] {
  const lines = [
    '| configuration | questions | failed | EM | F1 | evidence recall | turns | search calls | s / question | tokens / question | plan turns | no marker | unterminated block | empty queries | empty answer |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { label, aggregate: a, breakage: b } of rows) {
    const br = b ? [b.turns, b.noMarker, b.unterminatedBlock, b.emptyQueries, b.emptyAnswer].map(String) : ['—', '—', '—', '—', '—'];
    lines.push(`| ${label} | ${a.questions} | ${a.failed} | ${f3(a.em)} | ${f3(a.f1)} | ${f3(a.evidenceRecall)} | ${a.turns.toFixed(2)} | ${a.searchCalls.toFixed(2)} | ${(a.latencyMs / 1000).toFixed(1)} | ${a.tokens.toFixed(0)} | ${br.join(' | ')} |`);
  }
  return lines;
}

async function writeDocs(rows: Row[], sweep: Array<{ budget: number; row: Row }>, commands: string[], sweepQuestions: number): Promise<void> {
  const md = [
    '# HDS with a real LLM (generated by `npm run bench`, section "real LLM")',
    '',
    `Model: ${REAL_LLM_MODEL} (GGUF) served by \`npm run llm:serve\` (llama.cpp through node-llama-cpp 3.21.1, 2 threads, CPU), temperature 0, max_tokens 256.`,
    systemPromptArgs().length > 0
      ? 'System message: the text of `bench/real/hds-system-prompt.txt` before every prompt (`--system-prompt-file`, saved as `llm.systemPrompt`); the plan and final prompts are the reference\'s.'
      : 'No system message: the reference prompts alone, as one user message.',
    'Retrieval: BM25 (Okapi, k1 0.9, b 0.4) over hotpotqa-500 (`../shared/data/hotpotqa-500`), the first questions of queries.jsonl.',
    'HDS settings are the defaults (max_turns 3, max_parallel_queries 4, k_per_query 3, evidence_budget 12, max_search_calls 8) unless the row says otherwise.',
    'Breakage columns count plan turns: no marker (neither `\\boxed{}` nor a query block), unterminated query block, query block with no query, empty answer marker (`\\boxed{}` or the prompt\'s `\\boxed{...}` echoed).',
    '',
    ...tableLines(rows),
    '',
    `Search-budget sweep (first ${sweepQuestions} questions; ![scaling chart](hds-real-scaling.png)):`,
    '',
    ...tableLines(sweep.map((s) => s.row)),
    '',
    'Commands run (in the bench, through the CLI entry point):',
    '',
    ...commands.map((c) => `    dsw ${c}`),
    '',
  ];
  fs.writeFileSync(path.join(DOCS, 'hds-real.md'), md.join('\n'));
  if (sweep.length < 2) return;
  const series = (pick: (a: BatchAggregate) => number | null) => sweep.map((s): [number, number | null] => [s.budget, pick(s.row.aggregate)]);
  const svg = lineChartSvg({
    title: `HDS on hotpotqa-500 (${sweepQuestions} questions), ${REAL_LLM_MODEL}`,
    xLabel: 'max_search_calls',
    yLabel: 'score',
    xTicks: BUDGETS,
    xLog: true,
    yMax: 1,
    yFormat: (v) => v.toFixed(2),
    legend: 'right',
    width: 720,
    height: 420,
    series: [
      { name: 'F1', color: '#2557d6', points: series((a) => a.f1) },
      { name: 'EM', color: '#b42318', points: series((a) => a.em) },
      { name: 'evidence recall', color: '#15803d', dashed: true, points: series((a) => a.evidenceRecall) },
    ],
  });
  await svgToPng(svg, path.join(DOCS, 'hds-real-scaling.png'));
}

export async function benchHdsReal(): Promise<void> {
  heading('Real LLM: dsw hds on hotpotqa-500 (HDS, baselines, max_search_calls sweep)');
  const missing = realLlmMissing();
  if (missing) return void console.log(`skipped: ${missing}`);
  const dataset = sharedDataset('hotpotqa-500');
  if (!dataset) return void console.log('skipped: ../shared/data/hotpotqa-500 not found');
  const nHds = count('HDS_REAL_QUESTIONS', 50);
  const nSweep = Math.min(nHds, count('HDS_REAL_SWEEP_QUESTIONS', nHds));
  const nBase = count('HDS_REAL_BASELINE_QUESTIONS', nHds);
  const configs: Config[] = [
    { id: 'hds', questions: nHds, args: [] },
    ...(nBase > 0 ? [{ id: 'baselines', questions: nBase, args: ['--baselines', BASELINES.join(',')] }] : []),
    ...BUDGETS.filter((b) => b !== 8).map((b) => ({ id: `hds-max-search-calls-${b}`, questions: nSweep, args: ['--max-search-calls', String(b)] })),
  ];
  const server = await startLlmServer(Number(process.env.HDS_REAL_PORT ?? 8182));
  const results: ConfigResult[] = [];
  const deadline = stopAt();
  let stopped = false;
  // dsw hds stops at SIGINT and writes what it finished.
  const timer = deadline === null ? undefined : setTimeout(() => {
    stopped = true;
    process.emit('SIGINT');
  }, Math.max(0, deadline - Date.now()));
  try {
    for (const config of configs) {
      if (stopped) {
        console.log(`${config.id}: not run (HDS_REAL_STOP_AT ${process.env.HDS_REAL_STOP_AT} reached)`);
        continue;
      }
      const result = await runConfig(dataset, server.baseUrl, config);
      results.push(result);
      const ran = new Set(result.items.map((i) => i.questionId)).size;
      const perQuestion = result.wallMs / Math.max(1, ran);
      console.log(`${config.id}: ${ran} of ${config.questions} questions${stopped ? ' (stopped)' : ''}, ${(result.wallMs / 1000).toFixed(0)} s (${(perQuestion / 1000).toFixed(1)} s per question)${result.reused ? ', reused from .tmp/hds-real' : ''}`);
      // Written after every configuration, so that a bench stopped midway still leaves what it measured.
      const byId = new Map(results.map((r) => [r.config.id, r.items]));
      const hdsItems = byId.get('hds')!;
      const rows: Row[] = [row('HDS (max_search_calls 8)', hdsItems, 'hds')];
      const base = byId.get('baselines');
      if (base) for (const b of BASELINES) rows.push(row(b, base, b));
      const sweep = BUDGETS.flatMap((budget) => {
        const items = budget === 8 ? hdsItems : byId.get(`hds-max-search-calls-${budget}`);
        return items ? [{ budget, row: row(`HDS max_search_calls ${budget}`, items, 'hds', nSweep) }] : [];
      });
      const system = systemPromptArgs().length > 0 ? ['--system-prompt-file', 'bench/real/hds-system-prompt.txt'] : [];
      const commands = results.map((r) => `hds --dataset ../shared/data/hotpotqa-500 --questions-from-dataset --limit ${r.config.questions} --base-url <llm:serve>/v1 --model ${REAL_LLM_MODEL} ${[...DECODING, ...system, ...r.config.args].join(' ')} --out <file>`);
      await writeDocs(rows, sweep, commands, nSweep);
      for (const line of tableLines([...rows, ...sweep.map((s) => s.row)])) console.log(line);
    }
    if (results.length === configs.length) console.log('written: docs/hds-real.md, docs/hds-real-scaling.png');
  } finally {
    clearTimeout(timer);
    await server.stop();
  }
}
