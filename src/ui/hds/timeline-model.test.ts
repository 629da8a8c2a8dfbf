import { describe, expect, it } from 'vitest';
import { runHds, type HdsEvent, type LlmProvider, type TextRetriever } from '../../core/index.ts';
import { actionBadge, applyHdsEvent, timelineFromRun, type TimelineView } from './timeline-model.ts';

const llm = (replies: string[]): LlmProvider => ({
  describe: () => ({ provider: 'test', baseUrl: '', model: 'm' }),
  complete: async (_request, options) => {
    const reply = replies.shift()!;
    for (const piece of reply.match(/.{1,5}/gs) ?? []) options?.onDelta?.({ content: piece, reasoning: '' });
    return { content: reply, reasoning: '' };
  },
});
const retriever: TextRetriever = { search: async (q) => [{ id: `doc-${q}`, score: 1, text: `about ${q}` }] };

describe('the timeline model', () => {
  it('puts the question\'s own search (question_search_k) first, as a card without an LLM call, live as in replay', async () => {
    const events: HdsEvent[] = [];
    const run = await runHds('q?', { maxTurns: 1, questionSearchK: 2 }, { llm: llm(['<|begin search queries|>a<|end search queries|>', '\\boxed{x}']), retriever }, { onEvent: (e) => events.push(e) });
    let view: TimelineView | null = null;
    let whileSearching: TimelineView | null = null;
    for (const event of events) {
      view = applyHdsEvent(view, event);
      if (event.type === 'retrieval-start' && event.turn === 0) whileSearching = view;
    }
    expect(view).toEqual(timelineFromRun(run));
    expect(whileSearching!.turns).toHaveLength(1);
    expect(whileSearching!.turns[0]).toMatchObject({ turn: 0, phase: 'question', status: 'retrieving', executed: ['q?'], k: 2 });
    expect(whileSearching!.searchCallsUsed).toBe(1);
    const [question, plan, final] = view!.turns;
    expect(question).toMatchObject({ turn: 0, phase: 'question', status: 'complete', executed: ['q?'] });
    expect(question!.llm).toBeUndefined();
    expect(question!.retrievals[0]).toMatchObject({ query: 'q?', status: 'ok' });
    expect(actionBadge(question!)).toBe('queries');
    expect(plan).toMatchObject({ turn: 1, phase: 'plan', remainingSearchCalls: 7 });
    expect(final!.phase).toBe('final');
  });

  it('builds the same view from live events as from the finished run, and shows partial states on the way', async () => {
    const events: HdsEvent[] = [];
    const run = await runHds('q?', { maxTurns: 2 }, { llm: llm(['<|begin search queries|>a; b<|end search queries|>', 'no marker here']), retriever }, { onEvent: (e) => events.push(e) });
    let view: TimelineView | null = null;
    const snapshots: TimelineView[] = [];
    for (const event of events) {
      view = applyHdsEvent(view, event);
      snapshots.push(view!);
    }
    expect(view).toEqual(timelineFromRun(run));
    // Part-way through the first response.
    const streaming = snapshots[events.findIndex((e) => e.type === 'llm-delta')]!; // after the first 5-character piece
    expect(streaming.turns[0]).toMatchObject({ status: 'streaming', response: '<|beg' });
    expect(actionBadge(streaming.turns[0]!)).toBe('pending');
    // After the first retrieval started and before it ended.
    const retrieving = snapshots[events.findIndex((e) => e.type === 'retrieval-start')]!;
    expect(retrieving.searchCallsUsed).toBe(1);
    expect(retrieving.turns[0]!.status).toBe('retrieving');
    expect(retrieving.turns[0]!.retrievals[0]).toMatchObject({ query: 'a', status: 'running' });
    expect(retrieving.turns[0]!.remainingSearchCalls).toBe(8);
    expect(view!.turns.map(actionBadge)).toEqual(['queries', 'unmarked']);
    expect(view!.turns[1]!.remainingSearchCalls).toBe(6);
  });

  it('shows the final-prompt call as a fallback card', async () => {
    const run = await runHds('q?', { maxTurns: 1 }, { llm: llm(['<|begin search queries|>a<|end search queries|>', 'Paris']), retriever });
    const view = timelineFromRun(run);
    expect(view.turns.map((t) => [t.phase, t.turn, actionBadge(t)])).toEqual([
      ['plan', 1, 'queries'],
      ['final', 2, 'fallback'],
    ]);
    expect(view.turns[1]!.action).toEqual({ kind: 'answer', text: 'Paris', unmarked: true });
    expect(view.turns[1]!.marker).toBe('none');
    expect(view).toMatchObject({ status: 'completed', answer: 'Paris', terminatedBy: 'max_turns_fallback' });
  });

  it('shows the answer extracted from a boxed final reply, with its marker (H8)', async () => {
    const run = await runHds('q?', { maxTurns: 1 }, { llm: llm(['<|begin search queries|>a<|end search queries|>', 'It is \\boxed{Paris}.']), retriever });
    const view = timelineFromRun(run);
    expect(view.turns[1]).toMatchObject({ response: 'It is \\boxed{Paris}.', marker: 'boxed', action: { kind: 'answer', text: 'Paris' } });
    expect(view.answer).toBe('Paris');
  });
});
