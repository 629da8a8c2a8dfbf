// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHds, type HdsRun, type LlmProvider, type RetrievedPassage, type TextRetriever } from '../../core/index.ts';
import { Timeline } from './Timeline.tsx';
import { timelineFromRun } from './timeline-model.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const XSS_SCRIPT = '<script>window.__xss = 1</script>';
const XSS_IMG = '<img src="x" onerror="window.__xss = 2">';

function scripted(replies: Array<{ content: string; reasoning?: string }>): LlmProvider {
  return {
    describe: () => ({ provider: 'test', baseUrl: '', model: 'm' }),
    complete: async () => {
      const reply = replies.shift()!;
      return { content: reply.content, reasoning: reply.reasoning ?? '', usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 } };
    },
  };
}

const passages: Record<string, RetrievedPassage[]> = {
  'mill builder': [
    { id: 'd1', score: 2.5, text: `Ada Lark built the tide mill. ${XSS_IMG}`, title: 'Tide mill' },
    { id: 'd2', score: 1.25, text: 'Unrelated passage.', title: 'Other' },
  ],
  [`harbour ${XSS_SCRIPT}`]: [{ id: 'd3', score: 1, text: 'The harbour.' }],
};
const retriever: TextRetriever = { search: async (text) => passages[text] ?? [] };

async function xssRun(): Promise<HdsRun> {
  return runHds(
    'Who built the mill?',
    {},
    {
      llm: scripted([
        { reasoning: `thinking ${XSS_SCRIPT}`, content: `${XSS_IMG} <|begin search queries|>mill builder; harbour ${XSS_SCRIPT}<|end search queries|>` },
        { content: `Ada Lark ${XSS_SCRIPT}` }, // no marker: an unmarked answer
      ]),
      retriever,
      relevance: (id) => ({ d1: 1, d2: 0 })[id],
    },
  );
}

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  delete (window as { __xss?: unknown }).__xss;
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

const cards = () => [...container.querySelectorAll('[data-testid="turn-card"]')];
const currentIndex = () => cards().findIndex((c) => c.getAttribute('aria-current') === 'step');

describe('Timeline', () => {
  it('renders model and corpus text as text: <script> and <img onerror> stay inert', async () => {
    const run = await xssRun();
    act(() => root.render(<Timeline view={timelineFromRun(run)} answers={['Ada Lark']} />));
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
    const text = container.textContent ?? '';
    expect(text).toContain(`${XSS_IMG} <|begin search queries|>`); // the model output, verbatim
    expect(text).toContain(`thinking ${XSS_SCRIPT}`); // the reasoning
    expect(text).toContain(`Ada Lark built the tide mill. ${XSS_IMG}`); // a passage
    const chips = [...container.querySelectorAll('[data-testid="query-chip"]')].map((c) => c.textContent);
    expect(chips).toEqual(['mill builder', `harbour ${XSS_SCRIPT}`]);
  });

  it('shows the action, labelled results, budget, and the answer scored against the gold answer', async () => {
    const run = await xssRun();
    act(() => root.render(<Timeline view={timelineFromRun(run)} answers={['Ada Lark']} />));
    const badges = [...container.querySelectorAll('[data-testid="action-badge"]')].map((b) => b.textContent);
    expect(badges).toEqual(['search', 'unmarked answer']);
    const results = container.querySelector('[aria-label="Results for mill builder"]')!;
    const items = [...results.querySelectorAll('li')];
    expect(items[0]!.textContent).toContain('d1');
    expect(items[0]!.textContent).toContain('score 2.500');
    expect(items[0]!.textContent).toContain('✓ gold supporting passage');
    expect(items[1]!.textContent).toContain('judged not relevant');
    expect(container.querySelector('[data-testid="search-meter"]')!.textContent).toContain('Search calls: 2 used, 6 left of 8');
    expect(container.textContent).toContain('Turn 2 of 3');
    expect(container.textContent).toContain('search calls left at start: 8 of 8');
    expect(container.textContent).toContain('tokens 10 in / 2 out');
    // The unmarked answer keeps the text outside reasoning, so "Ada Lark <script>…" does not match the gold exactly.
    expect(container.querySelector('[data-testid="answer-scores"]')!.textContent).toBe('EM 0 F1 0.67');
    const timing = container.querySelector('[aria-label="Timings of turn 1"]')!;
    expect([...timing.querySelectorAll('.timing-label')].map((l) => l.textContent)).toEqual(['LLM', 'mill builder', `harbour ${XSS_SCRIPT}`]);
  });

  it('says when queries came from a heading list and when the log kept only the first block', async () => {
    const run = await runHds('Who built the mill?', {}, {
      llm: scripted([
        { content: 'The builder first.\n\nSearch queries:\n- mill builder' },
        { content: '<|begin search queries|>harbour<|end search queries|>; <|begin search queries|>harbour<|end search queries|>' },
        { content: '\\boxed{Ada Lark}' },
      ]),
      retriever,
    });
    act(() => root.render(<Timeline view={timelineFromRun(run)} answers={['Ada Lark']} />));
    const [first, second] = cards();
    expect(first!.querySelector('[data-testid="heading-list-hint"]')).not.toBeNull();
    expect(first!.querySelector('[data-testid="log-cut-hint"]')).toBeNull();
    expect(second!.querySelector('[data-testid="heading-list-hint"]')).toBeNull();
    expect(second!.querySelector('[data-testid="log-cut-hint"]')!.textContent).toContain('first query block');
  });

  it('says when the final reply wrote a query block no turn was left to run, and scores only the text before it', async () => {
    const run = await runHds('Who built the mill?', { maxTurns: 1 }, {
      llm: scripted([
        { content: '<|begin search queries|>mill builder<|end search queries|>' },
        { content: `Ada Lark. <|begin search queries|>harbour ${XSS_SCRIPT}; mill<|end search queries|>` },
      ]),
      retriever,
    });
    act(() => root.render(<Timeline view={timelineFromRun(run)} answers={['Ada Lark']} />));
    const [first, final] = cards();
    expect(first!.querySelector('[data-testid="unrun-queries-hint"]')).toBeNull();
    expect(final!.querySelector('[data-testid="turn-answer"]')!.textContent).toBe('Ada Lark.');
    expect(final!.querySelector('[data-testid="unrun-queries-hint"]')!.textContent).toContain(`no turn was left to run it (“harbour ${XSS_SCRIPT}”, “mill”)`);
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('[data-testid="answer-scores"]')!.textContent).toBe('EM 1 F1 1.00');
  });

  it('shows the question\'s own search as the first card: its results, no model output, no LLM time', async () => {
    const run = await runHds('mill builder', { maxTurns: 1, questionSearchK: 2 }, { llm: scripted([{ content: '\\boxed{Ada Lark}' }]), retriever });
    act(() => root.render(<Timeline view={timelineFromRun(run)} startAtFirst />));
    const [first, second] = cards();
    expect(first!.getAttribute('aria-label')).toBe('Question search');
    expect(first!.querySelector('h4')!.textContent).toBe('The question, searched before turn 1');
    expect(first!.textContent).toContain('no LLM call · one search call · top 2');
    expect(first!.querySelector('[data-testid="model-output"]')).toBeNull();
    expect(first!.querySelector('section[aria-label="Query: mill builder"]')!.textContent).toContain('Tide mill');
    expect(first!.querySelector('img')).toBeNull(); // the passage's markup stays text
    expect(second!.getAttribute('aria-label')).toBe('Turn 1');
  });

  it('steps through the turns with the arrow keys and the buttons', async () => {
    const run = await xssRun();
    act(() => root.render(<Timeline view={timelineFromRun(run)} startAtFirst />));
    expect(currentIndex()).toBe(0);
    act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' })));
    expect(currentIndex()).toBe(1);
    act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' })));
    expect(currentIndex()).toBe(1); // the last card
    const previous = container.querySelector('button[aria-label="Previous turn"]') as HTMLButtonElement;
    act(() => previous.click());
    expect(currentIndex()).toBe(0);
    expect(previous.disabled).toBe(true);
    // Keys typed into a text field are not taken for stepping.
    const input = document.createElement('input');
    document.body.append(input);
    act(() => void input.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true })));
    expect(currentIndex()).toBe(0);
    input.remove();
  });
});
