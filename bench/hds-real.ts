// Real LLM: `dsw hds` on the first hotpotqa-500 questions with the model of `npm run models` served on loopback —
// HDS, the single-shot RAG / IRCoT / decomposition baselines and a max_search_calls sweep; writes the table
// (docs/hds-real.md) and the scaling chart (docs/hds-real-scaling.png).
// Question counts (the first N questions with answers of queries.jsonl): HDS_REAL_QUESTIONS (HDS, default 50),
// HDS_REAL_SINGLE_SHOT_QUESTIONS (default: the HDS count), HDS_REAL_SWEEP_QUESTIONS (max_search_calls 1, 2, 4; default:
// the HDS count), HDS_REAL_BASELINE_QUESTIONS (IRCoT and decomposition; default: the HDS count),
// HDS_REAL_PASSAGES_SWEEP_QUESTIONS (max_search_calls 1, 2, 4 with --final-context passages; default: the sweep count),
// HDS_REAL_VARIANT_QUESTIONS (the loop variants: the dsw-1 prompt, --repeated-block notice and answer, --final-context passages,
// temperature 0.7; default: the HDS count). They run in that order; the variants are compared on their own questions, in a table of their own.
// Incremental: every question of every configuration is one `dsw hds --question-ids <id>` whose runs file is kept in
// bench/real/hds-real-runs/<model>[-no-system]-<settings>/<configuration>/<question id>.json, which is committed: a
// later bench run with the same model and settings, on this machine or another, reuses every file there and runs only
// the missing questions (HDS_REAL_FRESH=1 runs them all again), so raising a count, or running again after a stop,
// continues where the last run ended; the docs are always rebuilt from every saved question.
// DSW_LLM_MODEL picks the model (scripts/llm-paths.mjs). The bench starts the server (under nice -n HDS_REAL_NICE,
// default 10) on HDS_REAL_PORT (default 8182), or uses a running one at HDS_REAL_BASE_URL (e.g. http://127.0.0.1:8080/v1;
// then HDS_REAL_THREADS and HDS_REAL_NICE should say how that server was started, for the docs).
// HDS_REAL_MAX_TOKENS bounds a reply (default 256); HDS_REAL_K_PER_QUERY sets k_per_query (default 3, the reference's);
// HDS_REAL_PASSAGE_CHARS cuts the passage texts the methods see (`dsw hds --passage-chars`; default 0: whole texts);
// HDS_REAL_THREADS is the server's thread count (default 2; on a crowded machine 1 generates far faster).
// HDS_REAL_STOP_AT=<ISO time or HH:MM UTC> stops the running question then (it is not kept) and skips the rest.
// HDS_REAL_CONFIGS=<ids, comma-separated> runs only those configurations (hds, single-shot, hds-max-search-calls-<1|2|4>,
// hds-final-passages-max-search-calls-<1|2|4>, ircot-decomposition, the loop variants' ids; the others read their saved questions only), so two benches, each with its own server on its
// own port, can share a machine's cores; HDS_REAL_SHARD=<i>/<n> runs only the missing questions at positions
// i, i+n, i+2n… of each list (0-based), so n benches can split one configuration's questions.
// `HDS_REAL_ONLY=1 npm run bench` runs this section alone.
import fs from 'node:fs';
import path from 'node:path';
import { aggregateBatch, HDS_PROTOCOL, type BatchAggregate, type BatchItem, type BatchQuestion } from '../src/core/index.ts';
import { main } from '../src/cli/main.ts';
import { heading, sharedDataset } from './harness.ts';
import { lineChartSvg } from './charts/line-chart.ts';
import { svgToPng } from './charts/to-png.ts';
import { REAL_LLM_MODEL, realLlmMissing, startLlmServer, type LlmServer } from './real-llm.ts';
import { commonQuestions, missedEvidence, protocolTable, rescored, scoreTable, significanceTable, type ConfigItems } from './real/hds-real-report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCS = path.join(ROOT, 'docs');
const NOTES = path.join(ROOT, 'bench/real/hds-real-notes.md');
/** Every question's runs file, kept in git: an HDS question costs minutes of CPU, and the docs are built from them. */
const RUNS = path.join(ROOT, 'bench/real/hds-real-runs');
const BUDGETS = [1, 2, 4, 8];
/**
 * The system message sent before the HDS prompts (a chat setting: the prompts stay the reference's; the baselines
 * never get it). Without it the small model answers the plan prompt by echoing its two actions;
 * HDS_REAL_SYSTEM_PROMPT=none sends none.
 */
const SYSTEM_PROMPT_FILE = path.join(ROOT, 'bench/real/hds-system-prompt.txt');
function systemPromptArgs(): string[] {
  return process.env.HDS_REAL_SYSTEM_PROMPT === 'none' ? [] : ['--system-prompt-file', SYSTEM_PROMPT_FILE];
}

interface Config {
  id: string;
  /** Variant ids in its runs files. */
  variants: string[];
  questions: number;
  args: string[];
}

interface ConfigResult {
  config: Config;
  items: BatchItem[];
  /** Wall time of the questions run now (not the reused ones). */
  wallMs: number;
  ranNow: number;
  reused: number;
}

/** The time HDS_REAL_STOP_AT names (`HH:MM` UTC is its next occurrence, so 01:00 said at 23:00 is tomorrow), or null. */
function stopAt(raw = process.env.HDS_REAL_STOP_AT, now = Date.now()): number | null {
  if (!raw) return null;
  const hhmm = /^(\d{1,2}):(\d{2})$/.exec(raw);
  let t = hhmm ? new Date(now).setUTCHours(Number(hhmm[1]), Number(hhmm[2]), 0, 0) : Date.parse(raw);
  if (!Number.isFinite(t)) throw new Error(`HDS_REAL_STOP_AT must be HH:MM (UTC) or an ISO time, got "${raw}"`);
  if (hhmm && t <= now) t += 24 * 3600_000;
  return t;
}

function count(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0, got "${raw}"`);
  return n;
}

/** Decoding and HDS settings shared by every configuration (and the cache folder's name). */
function settings() {
  const maxTokens = count('HDS_REAL_MAX_TOKENS', 256);
  const k = count('HDS_REAL_K_PER_QUERY', 3);
  const passageChars = count('HDS_REAL_PASSAGE_CHARS', 0);
  const threads = count('HDS_REAL_THREADS', 2);
  // H9–H12 (HDS_REAL_PROTOCOL=h8 runs the loop as before them: no stop sequences, the reference final prompt).
  const protocol = process.env.HDS_REAL_PROTOCOL === 'h8' ? 'h8' : 'h12';
  const decoding = ['--temperature', '0', '--max-tokens', String(maxTokens)];
  const answer = protocol === 'h12' ? ['--final-answer', 'boxed-prefix', '--assistant-prefill'] : ['--plan-stop', 'none'];
  const hds = [...(k === 3 ? [] : ['--k-per-query', String(k)]), ...(passageChars > 0 ? ['--passage-chars', String(passageChars)] : []), ...answer];
  const tag = `${REAL_LLM_MODEL}${systemPromptArgs().length > 0 ? '' : '-no-system'}-t0-max${maxTokens}${k === 3 ? '' : `-k${k}`}${passageChars > 0 ? `-chars${passageChars}` : ''}${protocol === 'h12' ? '-h12' : ''}`;
  return { maxTokens, k, passageChars, threads, decoding, hds, tag, protocol };
}

/** Ids of the first `n` questions with gold answers, in queries.jsonl order (as `dsw hds --questions-from-dataset`). */
function firstQuestionIds(dataset: string, n: number): string[] {
  const ids: string[] = [];
  for (const line of fs.readFileSync(path.join(dataset, 'queries.jsonl'), 'utf8').split('\n')) {
    if (ids.length >= n) break;
    if (!line.trim()) continue;
    const q = JSON.parse(line) as { _id: string; answers?: unknown };
    if (Array.isArray(q.answers) && q.answers.some((a) => typeof a === 'string' && a.trim() !== '')) ids.push(q._id);
  }
  return ids;
}

/** Whether HDS_REAL_SHARD (unset: every position) gives this bench the question at position `i` of a list. */
function inShard(i: number): boolean {
  const raw = process.env.HDS_REAL_SHARD?.trim();
  if (!raw) return true;
  const m = /^(\d+)\/(\d+)$/.exec(raw);
  if (!m || Number(m[2]) < 1 || Number(m[1]) >= Number(m[2])) throw new Error(`HDS_REAL_SHARD must be <i>/<n> with 0 ≤ i < n, got "${raw}"`);
  return i % Number(m[2]) === Number(m[1]);
}

/** Whether HDS_REAL_CONFIGS (unset: every configuration) names configuration `id`. */
function chosenConfigs(id: string): boolean {
  const raw = process.env.HDS_REAL_CONFIGS?.trim();
  if (!raw) return true;
  const known = ['hds', ...LOOP_VARIANTS.map((v) => v.id), 'single-shot', 'oracle-context', ...BUDGETS.filter((b) => b !== 8).flatMap((b) => BUDGET_SWEEPS.map((w) => `${w.prefix}${b}`)), 'ircot-decomposition'];
  const ids = raw.split(',').map((x) => x.trim()).filter(Boolean);
  const unknown = ids.filter((x) => !known.includes(x));
  if (unknown.length > 0) throw new Error(`HDS_REAL_CONFIGS: unknown configuration(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  return ids.includes(id);
}

interface Stop {
  stopped: boolean;
}

async function runConfig(dataset: string, baseUrl: string, config: Config, ids: readonly string[], stop: Stop): Promise<ConfigResult> {
  const { decoding, hds, tag } = settings();
  const dir = path.join(RUNS, tag, config.id);
  fs.mkdirSync(dir, { recursive: true });
  const items: BatchItem[] = [];
  let wallMs = 0;
  let ranNow = 0;
  let reused = 0;
  for (const [i, id] of ids.entries()) {
    const file = path.join(dir, `${id}.json`);
    if (fs.existsSync(file) && process.env.HDS_REAL_FRESH !== '1') {
      items.push(...readItems(file));
      reused++;
      continue;
    }
    // Stopped: the questions after a gap (another shard's, or one not asked yet) are still read if saved.
    if (stop.stopped) continue;
    if (!inShard(i)) continue;
    const partial = `${file}.partial`;
    const noSystem = config.args.includes('--no-system-prompt');
    const argv = ['hds', '--dataset', dataset, '--questions-from-dataset', '--question-ids', id, '--base-url', baseUrl,
      '--model', REAL_LLM_MODEL, ...decoding, ...(noSystem ? [] : systemPromptArgs()), ...hds, ...config.args.filter((a) => a !== '--no-system-prompt'), '--out', partial, '--json'];
    console.log(`[${config.id} ${i + 1}/${ids.length}] dsw ${argv.join(' ')}`);
    const t0 = performance.now();
    const code = await main(argv, { out: () => {}, err: (text) => process.stderr.write(`  ${text}`), cwd: ROOT, env: process.env });
    const ms = performance.now() - t0;
    if (!fs.existsSync(partial)) throw new Error(`dsw hds exited with ${code} and wrote no runs`);
    const got = readItems(partial);
    // A question stopped midway (HDS_REAL_STOP_AT), or with a variant missing, is not kept: a later run asks it again.
    if (stop.stopped || got.length < config.variants.length) {
      fs.rmSync(partial);
      continue;
    }
    fs.renameSync(partial, file);
    items.push(...got);
    wallMs += ms;
    ranNow++;
    const a = got.map((g) => `${g.variantId} F1 ${g.f1?.toFixed(2) ?? '—'} ${(g.latencyMs / 1000).toFixed(0)} s`).join(', ');
    console.log(`  ${id}: ${a}`);
  }
  return { config, items, wallMs, ranNow, reused };
}

/** A runs file's items, scored again from their runs against the questions saved with them (H12). */
function readItems(file: string): BatchItem[] {
  const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { runs: Array<{ items?: BatchItem[]; questions?: BatchQuestion[] }> };
  return saved.runs.flatMap((r) => rescored(r.items ?? [], new Map((r.questions ?? []).map((q) => [q.id, q]))));
}

/** The loop's variants beside the reference HDS row (H12 only), each compared on the questions they all ran. */
const LOOP_VARIANTS = [
  { id: 'hds-dsw', label: 'HDS, dsw-1 plan prompt', args: ['--prompt-variant', 'dsw-1', '--no-system-prompt'] },
  { id: 'hds-repeat-notice', label: 'HDS, a repeated block gets a notice', args: ['--repeated-block', 'notice'] },
  { id: 'hds-repeat-answer', label: 'HDS, a repeated block ends the search', args: ['--repeated-block', 'answer'] },
  { id: 'hds-final-passages', label: 'HDS, the final prompt reads the passages shown', args: ['--final-context', 'passages'] },
  { id: 'hds-final-passages-guard', label: 'HDS, the final prompt reads the passages shown, a looping plan reply ended', args: ['--final-context', 'passages', '--plan-guard', 'loops'], against: 'hds-final-passages' },
  { id: 'hds-question-first-passages', label: 'HDS, the question searched first (top 5), the final prompt reads the passages shown', args: ['--question-search-k', '5', '--final-context', 'passages'] },
  { id: 'hds-final-passages-rp11', label: 'HDS, the final prompt reads the passages shown, repeat penalty 1.1', args: ['--final-context', 'passages', '--repeat-penalty', '1.1'] },
  { id: 'hds-t07', label: "HDS, temperature 0.7 (the authors'), seed 1", args: ['--temperature', '0.7', '--seed', '1'] },
] as const;

/**
 * The max_search_calls sweeps: the reference loop, and the loop whose final prompt reads the passages shown. Budget
 * 8 is the default, so its row is the configuration `atDefault`.
 */
const BUDGET_SWEEPS = [
  { prefix: 'hds-max-search-calls-', atDefault: 'hds', label: 'HDS, reference plan prompt + system message', args: [] as string[], chart: 'hds-real-scaling.png' },
  { prefix: 'hds-final-passages-max-search-calls-', atDefault: 'hds-final-passages', label: 'HDS, the final prompt reads the passages shown', args: ['--final-context', 'passages'], chart: 'hds-real-scaling-passages.png' },
] as const;

/** Labels of the configurations' rows. */
const LABELS: Record<string, string> = {
  hds: 'HDS, reference plan prompt + system message',
  ...Object.fromEntries(LOOP_VARIANTS.map((v) => [v.id, v.label])),
  'single-shot': 'single-shot RAG',
  'oracle-context': 'oracle context (gold passages)',
  ircot: 'IRCoT',
  decomposition: 'decomposition',
};

interface DocsInput {
  /** Every configuration's items (the sweep's included), by configuration id. */
  results: readonly ConfigResult[];
  commands: string[];
  server: string;
}

async function writeDocs({ results, commands, server }: DocsInput): Promise<void> {
  const { maxTokens, k, passageChars, threads, protocol } = settings();
  const byId = new Map(results.map((r) => [r.config.id, r.items]));
  const main: ConfigItems[] = [];
  const row = (id: string): ConfigItems[] => {
    const items = byId.get(id);
    return items?.length ? [{ id, label: LABELS[id]!, variantId: id.startsWith('hds') ? 'hds' : id, items }] : [];
  };
  for (const id of ['hds', 'single-shot', 'oracle-context']) main.push(...row(id));
  const others = byId.get('ircot-decomposition') ?? [];
  for (const id of ['ircot', 'decomposition']) if (others.some((i) => i.variantId === id)) main.push({ id, label: LABELS[id]!, variantId: id, items: others });
  const common = commonQuestions(main);
  const single = main.find((c) => c.id === 'single-shot');
  const missed = single ? new Set([...missedEvidence(single)].filter((q) => common.has(q))) : new Set<string>();
  const hdsConfigs = main.filter((c) => c.id.startsWith('hds'));
  const sweeps = BUDGET_SWEEPS.map((sweep) => {
    const configs: ConfigItems[] = BUDGETS.map((budget) => ({ id: `${sweep.prefix}${budget}`, label: `max_search_calls ${budget}`, variantId: 'hds', items: (budget === 8 ? byId.get(sweep.atDefault) : byId.get(`${sweep.prefix}${budget}`)) ?? [] })).filter((c) => c.items.length > 0);
    return { sweep, configs, common: configs.length >= 2 ? commonQuestions(configs) : new Set<string>() };
  });
  // The loop variants beside the reference HDS row and single-shot, on the questions they all ran.
  const variants = LOOP_VARIANTS.flatMap((v) => row(v.id));
  const variantRows = [...row('hds'), ...variants, ...row('single-shot')];
  const variantCommon = variants.length > 0 ? commonQuestions(variantRows) : new Set<string>();
  const variantMissed = single ? new Set([...missedEvidence(single)].filter((q) => variantCommon.has(q))) : new Set<string>();
  const questionsOf = (c: ConfigItems) => new Set(c.items.filter((i) => i.variantId === c.variantId).map((i) => i.questionId));
  const most = Math.max(0, ...[...main, ...variants].map((c) => questionsOf(c).size));
  const widestConfigs = [...main, ...variants].filter((c) => questionsOf(c).size === most);
  const widestCommon = widestConfigs.length >= 2 ? commonQuestions(widestConfigs) : new Set<string>();
  const widest = { configs: widestConfigs, common: widestCommon, missed: single ? new Set([...missedEvidence(single)].filter((q) => widestCommon.has(q))) : new Set<string>() };
  const counts = [...main, ...variants].map((c) => `${c.label} ${new Set(c.items.filter((i) => i.variantId === c.variantId).map((i) => i.questionId)).size}`).join(', ');
  const md = [
    '# HDS with a real LLM (generated by `npm run bench -- hds-real`)',
    '',
    `Model: ${REAL_LLM_MODEL} (GGUF) served by \`npm run llm:serve\` (llama.cpp through node-llama-cpp 3.21.1, ${threads} thread${threads === 1 ? '' : 's'}, CPU${server}), temperature 0, max_tokens ${maxTokens}.`,
    protocol === 'h12'
      ? `Protocol \`${HDS_PROTOCOL.id}\` (decisions ${HDS_PROTOCOL.decisions.join(', ')}; extensions ${HDS_PROTOCOL.extensions.join(', ')}; docs/decisions.md). ` + 'With H9–H12: plan calls stop at the end of the query block (stop sequences `<|end search queries|>`, `<|end_search_queries|>`, `<|begin search results|>`, `<|begin_search_results|>`; the consumed marker is put back). Every method\'s answering call asks for a concise answer in `\\boxed{}` and is pre-filled with the HDS authors\' prefix `\\n</think>\\n\\n**Final Answer:**\\n\\boxed{` (`--final-answer boxed-prefix --assistant-prefill`), with no system message. EM and F1 score the marked answer, or a short span extracted from an unmarked reply (rule `short-span-1`, the same for every method); strict EM and F1 count marked answers only.'
      : 'Protocol: before H9–H12 (no stop sequences, the reference final prompt, answers scored as given).',
    `System message: \`bench/real/hds-system-prompt.txt\` before the plan prompts of “${LABELS.hds}” only (\`--system-prompt-file\`, saved as \`llm.systemPrompt\`); “${LABELS['hds-dsw']}” runs without one, its own prompt says what to do; the other HDS variants get it too; the baselines never get one.`,
    `Retrieval: BM25 (Okapi, k1 0.9, b 0.4) over hotpotqa-500 (\`../shared/data/hotpotqa-500\`); passage texts (\`title. text\`) ${passageChars > 0 ? `cut to at most ${passageChars} characters at a word for every method (\`--passage-chars\`, saved as \`retriever.passageChars\`; the ranking is BM25 over the whole documents)` : 'whole'}; the first questions with answers of queries.jsonl, in file order.`,
    `HDS settings are the reference defaults (max_turns 3, max_parallel_queries 4, k_per_query ${k}, evidence_budget 12, max_search_calls 8) unless a row says otherwise. The oracle context gives the model the question's gold passages with the single-shot prompt: the reader's upper bound.`,
    '',
    `Questions run so far: ${counts}. The tables compare the configurations on the ${common.size} questions all of them ran.`,
    '',
    '## Scores',
    '',
    ...scoreTable(main, common),
    '',
    `### Where single-shot misses evidence (${missed.size} of the ${common.size} questions: its evidence recall is below 1)`,
    '',
    ...(missed.size > 0 ? scoreTable(main, missed) : ['(none yet)']),
    '',
    ...(single
      ? [
          '### Paired tests against single-shot (F1, the same questions)',
          '',
          ...significanceTable(main, single, common),
          '',
          ...(missed.size > 0 ? ['On the questions where single-shot misses evidence:', '', ...significanceTable(main, single, missed), ''] : []),
        ]
      : []),
    '## Protocol',
    '',
    'Counted over the plan turns of the HDS runs on the same questions. Ended at a stop marker: the reply stopped at a stop sequence (H9). Invented results: the model began writing a results block itself. Turns with only repeats: every query of the block had run before (H5), so nothing new was searched. Answers echoing the prompt: the answer is a piece of the plan or final template or of the system message.',
    '',
    ...protocolTable(hdsConfigs, common),
    '',
    // Every configuration run on the most questions, on those questions: item 4's table, wider than the one above.
    ...(widest.common.size > common.size && widest.configs.length >= 2
      ? [
          `## Every configuration run on all ${widest.common.size} questions`,
          '',
          ...scoreTable(widest.configs, widest.common),
          '',
          ...(widest.missed.size > 0 ? [`Where single-shot misses evidence (${widest.missed.size} of them):`, '', ...scoreTable(widest.configs, widest.missed), ''] : []),
          ...(single ? [...significanceTable(widest.configs, single, widest.common), ''] : []),
          ...(single && widest.missed.size > 0 ? ['On the questions where single-shot misses evidence:', '', ...significanceTable(widest.configs, single, widest.missed), ''] : []),
          ...protocolTable(widest.configs.filter((c) => c.id.startsWith('hds')), widest.common),
          '',
        ]
      : []),
    ...(variantCommon.size > 0
      ? [
          `## Loop variants (the ${variantCommon.size} questions every variant ran)`,
          '',
          'The same loop with one setting changed: the project\'s dsw-1 plan prompt (no system message), sampling at the temperature of the HDS authors, 0.7 (seed 1) instead of greedy decoding, a final prompt that reads the distinct passages the search showed with the reading prompt of the baselines instead of the interaction log (`--final-context passages`), what a block that only repeats earlier queries leads to (`--repeated-block notice`: its results block ends with a line telling the model that nothing new was searched and to search for what is missing or answer; `--repeated-block answer`: the search ends there and the final prompt answers), or, with the passages final prompt, a plan reply that loops ended as it streams (`--plan-guard loops`: a span repeated 8 times or more, or a misspelled end marker, ends the call; the reply is kept through the first copy and its block runs).',
          '',
          ...scoreTable(variantRows, variantCommon),
          '',
          ...(variantMissed.size > 0 ? [`Where single-shot misses evidence (${variantMissed.size} of these questions):`, '', ...scoreTable(variantRows, variantMissed), ''] : []),
          ...(single ? [...significanceTable(variantRows.filter((c) => c.id !== 'single-shot'), single, variantCommon), ''] : []),
          ...protocolTable([...row('hds'), ...variants], variantCommon),
          '',
        ]
      : []),
    // A variant run on more questions than the others is also set against single-shot on every question both ran.
    ...(single
      ? variants.flatMap((v) => {
          const pair = commonQuestions([v, single]);
          if (pair.size <= variantCommon.size) return [];
          const pairMissed = new Set([...missedEvidence(single)].filter((q) => pair.has(q)));
          return [
            `### ${v.label}, against single-shot on the ${pair.size} questions both ran`,
            '',
            ...scoreTable([v, single], pair),
            '',
            ...(pairMissed.size > 0 ? [`Where single-shot misses evidence (${pairMissed.size} of these questions):`, '', ...scoreTable([v, single], pairMissed), ''] : []),
            ...significanceTable([v], single, pair),
            '',
            ...(pairMissed.size > 0 ? ['On the questions where single-shot misses evidence:', '', ...significanceTable([v], single, pairMissed), ''] : []),
            ...protocolTable([v], pair),
            '',
          ];
        })
      : []),
    // A variant that changes one setting of another is also set against it, on every question both (and single-shot) ran.
    ...LOOP_VARIANTS.flatMap((v) => {
      if (!('against' in v)) return [];
      const [mine] = row(v.id);
      const [base] = row(v.against);
      if (!mine || !base) return [];
      const trio = single ? [mine, base, single] : [mine, base];
      const ids = commonQuestions(trio);
      const idsMissed = single ? new Set([...missedEvidence(single)].filter((q) => ids.has(q))) : new Set<string>();
      return [
        `### ${v.label}, against “${base.label}”${single ? ' and single-shot' : ''} on the ${ids.size} questions they all ran`,
        '',
        ...scoreTable(trio, ids),
        '',
        ...(idsMissed.size > 0 ? [`Where single-shot misses evidence (${idsMissed.size} of these questions):`, '', ...scoreTable(trio, idsMissed), ''] : []),
        ...significanceTable([mine], base, ids),
        '',
        ...(single ? [...significanceTable([mine, base], single, ids), ''] : []),
        ...protocolTable([mine, base], ids),
        '',
      ];
    }),
    ...sweeps.flatMap(({ sweep, configs, common: sweepCommon }) =>
      sweepCommon.size > 0
        ? [
            `## Search-budget sweep (${sweep.label}; the ${sweepCommon.size} questions every budget ran; ![scaling chart](${sweep.chart}))`,
            '',
            ...scoreTable(configs, sweepCommon),
            '',
            ...protocolTable(configs, sweepCommon),
            '',
          ]
        : []),
    'Commands run (in the bench, through the CLI entry point, one per question; the runs files are in `bench/real/hds-real-runs/`):',
    '',
    ...commands.map((c) => `    dsw ${c}`),
    '',
    // Notes written by hand about the last run (machine load, server speed, what ran): bench/real/hds-real-notes.md.
    ...(fs.existsSync(NOTES) ? [fs.readFileSync(NOTES, 'utf8').trim(), ''] : []),
  ];
  fs.writeFileSync(path.join(DOCS, 'hds-real.md'), md.join('\n'));
  for (const { sweep, configs, common: sweepCommon } of sweeps) {
    if (configs.length >= 2 && sweepCommon.size > 0) await writeSweepChart(sweep.label, sweep.chart, configs, sweepCommon);
  }
}

/** One sweep's F1, strict F1 and evidence recall against max_search_calls, as a PNG in docs/. */
async function writeSweepChart(label: string, file: string, budgetConfigs: readonly ConfigItems[], sweepCommon: ReadonlySet<string>): Promise<void> {
  const series = (pick: (a: BatchAggregate) => number | null | undefined) =>
    budgetConfigs.map((c): [number, number | null] => [Number(c.id.split('-').at(-1)), pick(aggregateBatch(c.items.filter((i) => sweepCommon.has(i.questionId)), 'hds')) ?? null]);
  const svg = lineChartSvg({
    title: `${label}: hotpotqa-500 (${sweepCommon.size} questions), ${REAL_LLM_MODEL}`,
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
      { name: 'strict F1', color: '#7c3aed', dashed: true, points: series((a) => a.strictF1) },
      { name: 'evidence recall', color: '#15803d', dashed: true, points: series((a) => a.evidenceRecall) },
    ],
  });
  await svgToPng(svg, path.join(DOCS, file));
}

export async function benchHdsReal(): Promise<void> {
  heading('Real LLM: dsw hds on hotpotqa-500 (HDS, baselines, max_search_calls sweep)');
  const missing = process.env.HDS_REAL_BASE_URL ? null : realLlmMissing();
  if (missing) return void console.log(`skipped: ${missing}`);
  const dataset = sharedDataset('hotpotqa-500');
  if (!dataset) return void console.log('skipped: ../shared/data/hotpotqa-500 not found');
  const nHds = count('HDS_REAL_QUESTIONS', 50);
  const nSingle = count('HDS_REAL_SINGLE_SHOT_QUESTIONS', nHds);
  const nSweep = count('HDS_REAL_SWEEP_QUESTIONS', nHds);
  const nBase = count('HDS_REAL_BASELINE_QUESTIONS', nHds);
  const nPassagesSweep = count('HDS_REAL_PASSAGES_SWEEP_QUESTIONS', nSweep);
  const { protocol } = settings();
  // H12's project prompt runs without the system message (its own prompt says what the system message said).
  const nVariant = count('HDS_REAL_VARIANT_QUESTIONS', nHds);
  const loopVariants = protocol === 'h12' ? LOOP_VARIANTS.map((v) => ({ id: v.id, variants: ['hds'], questions: nVariant, args: [...v.args] })) : [];
  const configs: Config[] = [
    { id: 'hds', variants: ['hds'], questions: nHds, args: [] },
    { id: 'single-shot', variants: ['single-shot'], questions: nSingle, args: ['--baselines', 'single-shot', '--baselines-only'] },
    ...(protocol === 'h12' ? [{ id: 'oracle-context', variants: ['oracle-context'], questions: nSingle, args: ['--baselines', 'oracle-context', '--baselines-only'] }] : []),
    ...(protocol === 'h12' ? BUDGET_SWEEPS : BUDGET_SWEEPS.slice(0, 1)).flatMap((w) => BUDGETS.filter((b) => b !== 8).map((b) => ({ id: `${w.prefix}${b}`, variants: ['hds'], questions: w.atDefault === 'hds' ? nSweep : nPassagesSweep, args: [...w.args, '--max-search-calls', String(b)] }))),
    { id: 'ircot-decomposition', variants: ['ircot', 'decomposition'], questions: nBase, args: ['--baselines', 'ircot,decomposition', '--baselines-only'] },
    ...loopVariants,
  ].filter((c) => c.questions > 0);
  chosenConfigs('hds'); // a bad HDS_REAL_CONFIGS or HDS_REAL_SHARD fails before the server starts
  inShard(0);
  const niceness = count('HDS_REAL_NICE', 10);
  const external = process.env.HDS_REAL_BASE_URL;
  const { threads } = settings();
  const server: LlmServer = external ? { baseUrl: external, stop: async () => {} } : await startLlmServer(Number(process.env.HDS_REAL_PORT ?? 8182), threads, 300_000, niceness);
  const serverNote = niceness > 0 ? `, nice -n ${niceness}` : '';
  const results: ConfigResult[] = [];
  const deadline = stopAt();
  if (deadline !== null) console.log(`HDS_REAL_STOP_AT: stops at ${new Date(deadline).toISOString()}`);
  const stop: Stop = { stopped: false };
  // dsw hds stops at SIGINT and writes what it finished; the bench then drops the unfinished question. The bench's
  // own listener keeps a SIGINT between questions (or Ctrl-C) from ending the process (tsx exits at a SIGINT nobody
  // listens to), so the docs are still written and the server stopped.
  const onSigint = () => {
    stop.stopped = true;
  };
  process.on('SIGINT', onSigint);
  const timer = deadline === null ? undefined : setTimeout(() => {
    stop.stopped = true;
    process.emit('SIGINT');
  }, Math.max(0, deadline - Date.now()));
  try {
    for (const config of configs) {
      // After HDS_REAL_STOP_AT (or a SIGINT) only the saved questions are read.
      if (stop.stopped) console.log(`${config.id}: only saved questions (stopped by HDS_REAL_STOP_AT or SIGINT)`);
      const savedOnly = !chosenConfigs(config.id);
      if (savedOnly) console.log(`${config.id}: only saved questions (not in HDS_REAL_CONFIGS)`);
      const result = await runConfig(dataset, server.baseUrl, config, firstQuestionIds(dataset, config.questions), savedOnly ? { stopped: true } : stop);
      results.push(result);
      const ran = new Set(result.items.map((i) => i.questionId)).size;
      console.log(`${config.id}: ${ran} of ${config.questions} questions (${result.reused} reused, ${result.ranNow} run now in ${(result.wallMs / 1000).toFixed(0)} s)`);
      await writeAll(results, serverNote);
    }
    console.log('written: docs/hds-real.md, docs/hds-real-scaling.png');
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', onSigint);
    await server.stop();
  }
}

/** The docs from what the configurations have so far (written after each, so a stopped bench keeps them). */
async function writeAll(results: readonly ConfigResult[], serverNote: string): Promise<void> {
  const { decoding, hds } = settings();
  const system = systemPromptArgs().length > 0 ? ['--system-prompt-file', 'bench/real/hds-system-prompt.txt'] : [];
  // Only the configurations with saved questions: the others have run nothing yet.
  const commands = results.filter((r) => r.items.length > 0).map((r) => {
    const own = r.config.args.includes('--no-system-prompt') ? [] : system;
    return `hds --dataset ../shared/data/hotpotqa-500 --questions-from-dataset --question-ids <one of the first ${r.config.questions}> --base-url <llm:serve>/v1 --model ${REAL_LLM_MODEL} ${[...decoding, ...own, ...hds, ...r.config.args.filter((a) => a !== '--no-system-prompt')].join(' ')} --out <file>`;
  });
  await writeDocs({ results, commands, server: serverNote });
  console.log(fs.readFileSync(path.join(DOCS, 'hds-real.md'), 'utf8').split('\n').filter((l) => l.startsWith('|')).join('\n'));
}
