// The tables of docs/hds-real.md, built from saved runs only: every item is scored again from its run (the H12
// answer rule, strict and extracted), so runs saved under older scoring read alike.
import {
  aggregateBatch,
  pairedRandomizationTest,
  protocolBreakage,
  scoreAgentRun,
  type BatchAggregate,
  type BatchItem,
  type BatchQuestion,
  type HdsRun,
  type ProtocolBreakage,
} from '../../src/core/index.ts';

/** The items of one configuration, scored again from their runs. */
export interface ConfigItems {
  /** The configuration's id (its folder). */
  id: string;
  /** The row label. */
  label: string;
  /** Which variant of the runs files is this configuration's (a file may hold several). */
  variantId: string;
  items: BatchItem[];
}

/** Items scored again against their questions' gold (answers and qrels). */
export function rescored(items: readonly BatchItem[], questions: ReadonlyMap<string, BatchQuestion>): BatchItem[] {
  return items.map((item) => {
    const gold = questions.get(item.questionId);
    return item.run ? { ...item, ...scoreAgentRun(item.run, gold ? { answers: gold.answers, relevance: gold.relevance } : {}) } : item;
  });
}

/** The questions every configuration ran. */
export function commonQuestions(configs: readonly ConfigItems[]): Set<string> {
  const sets = configs.filter((c) => c.items.length > 0).map((c) => new Set(c.items.map((i) => i.questionId)));
  if (sets.length === 0) return new Set();
  return new Set([...sets[0]!].filter((q) => sets.every((s) => s.has(q))));
}

const only = (c: ConfigItems, ids: ReadonlySet<string>) => c.items.filter((i) => i.variantId === c.variantId && ids.has(i.questionId));
const f3 = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(3));

/** The scores table: one row per configuration, on `ids`. */
export function scoreTable(configs: readonly ConfigItems[], ids: ReadonlySet<string>): string[] {
  const lines = [
    '| configuration | questions | failed | EM | F1 | strict EM | strict F1 | answers extracted | evidence recall | LLM calls | search calls | s / question | tokens / question |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const c of configs) {
    const a: BatchAggregate = aggregateBatch(only(c, ids), c.variantId);
    if (a.questions === 0) continue;
    lines.push(`| ${c.label} | ${a.questions} | ${a.failed} | ${f3(a.em)} | ${f3(a.f1)} | ${f3(a.strictEm)} | ${f3(a.strictF1)} | ${a.extracted ?? 0} | ${f3(a.evidenceRecall)} | ${a.turns.toFixed(2)} | ${a.searchCalls.toFixed(2)} | ${(a.latencyMs / 1000).toFixed(1)} | ${a.tokens.toFixed(0)} |`);
  }
  return lines;
}

/** How the HDS configurations kept to the protocol, on `ids`. */
export function protocolTable(configs: readonly ConfigItems[], ids: ReadonlySet<string>): string[] {
  const lines = [
    '| configuration | runs | plan turns | ended at a stop marker | cut by max_tokens | ended by the plan guard | invented results | turns with only repeats | repeated queries | no marker | unterminated block | answers echoing the prompt |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const pct = (n: number, of: number) => (of === 0 ? '—' : `${n} (${((100 * n) / of).toFixed(0)}%)`);
  for (const c of configs) {
    const runs = only(c, ids).map((i) => i.run).filter((r): r is HdsRun => r?.kind === 'hds');
    if (runs.length === 0) continue;
    const b: ProtocolBreakage = protocolBreakage(runs);
    lines.push(`| ${c.label} | ${b.runs} | ${b.turns} | ${pct(b.stoppedAtMarker, b.turns)} | ${pct(b.cutByMaxTokens, b.turns)} | ${pct(b.cutByGuard, b.turns)} | ${pct(b.inventedResults, b.turns)} | ${pct(b.onlyRepeats, b.turns)} | ${b.repeatedQueries} | ${b.noMarker} | ${b.unterminatedBlock} | ${b.echoedPrompt} |`);
  }
  return lines;
}

/** The questions where `baseline` did not find every gold passage (evidence recall below 1). */
export function missedEvidence(baseline: ConfigItems): Set<string> {
  return new Set(baseline.items.filter((i) => i.evidenceRecall !== null && i.evidenceRecall < 1).map((i) => i.questionId));
}

/** Each configuration against `baseline` on F1, paired by question: mean difference, wins/ties/losses, p. */
export function significanceTable(configs: readonly ConfigItems[], baseline: ConfigItems, ids: ReadonlySet<string>): string[] {
  const lines = [
    `| configuration vs ${baseline.label} (F1) | questions | mean difference | wins / ties / losses | p (paired randomisation, 10,000, seed 1) |`,
    '|---|---|---|---|---|',
  ];
  const base = new Map(only(baseline, ids).map((i) => [i.questionId, i.f1 ?? 0]));
  for (const c of configs) {
    if (c === baseline) continue;
    const diffs = only(c, ids).filter((i) => base.has(i.questionId)).map((i) => (i.f1 ?? 0) - base.get(i.questionId)!);
    if (diffs.length === 0) continue;
    const wins = diffs.filter((d) => d > 1e-12).length;
    const losses = diffs.filter((d) => d < -1e-12).length;
    const mean = diffs.reduce((a, b) => a + b, 0) / diffs.length;
    const p = pairedRandomizationTest(diffs, { permutations: 10_000, seed: 1 });
    lines.push(`| ${c.label} | ${diffs.length} | ${mean >= 0 ? '+' : ''}${mean.toFixed(3)} | ${wins} / ${diffs.length - wins - losses} / ${losses} | ${p.toFixed(4)} |`);
  }
  return lines;
}
