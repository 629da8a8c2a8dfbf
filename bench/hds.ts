// Hybrid Deep Searcher: the wall time of a turn with parallel retrievals, and the time to render a long run's timeline.
import path from 'node:path';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import {
  Bm25Retriever,
  loadCorpus,
  MemoryCorpusStore,
  OKAPI_BM25,
  passageRetriever,
  runHds,
  type HdsRun,
  type LlmProvider,
  type RetrievedPassage,
  type TextRetriever,
} from '../src/core/index.ts';
import { fileSource } from '../src/cli/node-sources.ts';
import { Timeline } from '../src/ui/hds/Timeline.tsx';
import { timelineFromRun } from '../src/ui/hds/timeline-model.ts';
import { figure, heading } from './harness.ts';

const SAMPLE = path.resolve(import.meta.dirname, '../sample-data/meridian');
const DELAY_MS = 100;
const QUERIES = ['Harrow Point Light engineer', 'Edmund Carrow scholarship college', 'Fennick College founded', 'tea clipper race 1856'];

/** An LLM that answers at once from a list (no network, no tokens). */
function instantLlm(replies: string[]): LlmProvider {
  return {
    describe: () => ({ provider: 'bench', baseUrl: '', model: 'instant' }),
    complete: async () => ({ content: replies.shift() ?? '\\boxed{done}', reasoning: '' }),
  };
}

function delayed(retriever: TextRetriever, ms: number): TextRetriever {
  return {
    async search(text, k, signal) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return retriever.search(text, k, signal);
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function benchHds(): Promise<void> {
  heading(`HDS: one turn with ${QUERIES.length} parallel queries, retriever slowed to ${DELAY_MS} ms per query (medians of 5)`);
  const store = new MemoryCorpusStore();
  const files = await Promise.all(['corpus.jsonl', 'queries.jsonl', 'qrels/test.tsv'].map((f) => fileSource(path.join(SAMPLE, f), SAMPLE)));
  const { corpus, index } = await loadCorpus(files, { name: 'meridian' }, store);
  const slow = delayed(passageRetriever(new Bm25Retriever(index, OKAPI_BM25), (ids) => store.getDocuments(corpus.id, ids)), DELAY_MS);

  const singles: number[] = [];
  const turns: number[] = [];
  for (let round = 0; round < 6; round++) {
    // Baseline: each query alone; the slowest of the four.
    const alone: number[] = [];
    for (const q of QUERIES) {
      const t0 = performance.now();
      await slow.search(q, 3);
      alone.push(performance.now() - t0);
    }
    // The turn: plan call, four retrievals at once (retrieval_concurrency 4), results block.
    const starts = new Map<number, number>();
    let turnMs = 0;
    await runHds(
      'bench question',
      { maxTurns: 2 },
      { llm: instantLlm([`<|begin search queries|>${QUERIES.join('; ')}<|end search queries|>`, '\\boxed{x}']), retriever: slow },
      {
        onEvent: (e) => {
          if (e.type === 'turn-start') starts.set(e.turn, performance.now());
          if (e.type === 'turn-end' && e.turn === 1) turnMs = performance.now() - starts.get(1)!;
        },
      },
    );
    if (round === 0) continue; // warm-up
    singles.push(Math.max(...alone));
    turns.push(turnMs);
  }
  const single = median(singles);
  const turn = median(turns);
  figure('slowest single retrieval (baseline)', `${single.toFixed(1)} ms`, 'baseline', null);
  figure(`turn with ${QUERIES.length} parallel queries`, `${turn.toFixed(1)} ms`, 'measured', null);
  figure('turn / slowest single retrieval', `${(turn / single).toFixed(2)}×`, '≤ 1.2×', turn / single <= 1.2);

  heading('HDS timeline: render a 10-turn run, 4 queries × 12 results per turn (react-dom/server renderToString in Node, medians of 5)');
  const run = await longRun();
  const view = timelineFromRun(run);
  const results = run.turns.reduce((n, t) => n + t.retrievals.reduce((m, r) => m + r.results.length, 0), 0);
  const renderTimeline = () => renderToString(createElement(Timeline, { view, answers: ['Margery Fennick'], startAtFirst: true }));
  // Baseline: the same passage texts as a bare list (what any rendering of the texts costs).
  const texts = run.turns.flatMap((t) => t.retrievals.flatMap((r) => r.results.map((x) => x.text)));
  const renderPlain = () => renderToString(createElement('ol', null, ...texts.map((text, i) => createElement('li', { key: i }, text))));
  const timelineMs = await timed(renderTimeline);
  const plainMs = await timed(renderPlain);
  figure(`plain list of the ${results} passage texts (baseline)`, `${plainMs.toFixed(1)} ms`, 'baseline', null);
  figure(`timeline: ${run.turns.length} turns, ${results} results`, `${timelineMs.toFixed(1)} ms`, '< 200 ms', timelineMs < 200);
  figure('timeline / plain list', `${(timelineMs / plainMs).toFixed(2)}×`, 'comparison only', null);
}

async function timed(fn: () => unknown): Promise<number> {
  fn();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** A completed 10-turn run: every turn searches 4 new queries with 12 results of ~90 words each. */
async function longRun(): Promise<HdsRun> {
  const words = 'the harbour light keeper rowed out through the fog to the brig while the bell on the skerry rang'.split(' ');
  const passage = (q: number, r: number) => Array.from({ length: 90 }, (_, i) => words[(q * 7 + r * 3 + i) % words.length]).join(' ');
  const replies = Array.from({ length: 10 }, (_, t) => `Turn ${t + 1} reasoning. <|begin search queries|>${[0, 1, 2, 3].map((q) => `query ${t}-${q}`).join('; ')}<|end search queries|>`);
  replies.push('\\boxed{Margery Fennick}');
  const retriever: TextRetriever = {
    async search(text): Promise<RetrievedPassage[]> {
      const q = Number(text.replace(/\D/g, ''));
      return Array.from({ length: 12 }, (_, r) => ({ id: `d${q}-${r}`, score: 12 - r, text: passage(q, r), title: `Passage ${q}-${r}` }));
    },
  };
  return runHds(
    'Who founded the college?',
    { maxTurns: 10, maxSearchCalls: 40, kPerQuery: 12, evidenceBudget: 12 },
    { llm: instantLlm(replies), retriever, relevance: (id) => (id.endsWith('-0') ? 1 : undefined) },
  );
}
