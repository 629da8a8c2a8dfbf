import { describe, expect, it } from 'vitest';
import type { HdsEvent } from '../../core/index.ts';
import { FrameBatcher, mergeDeltas, type FrameScheduler } from './frame-batcher.ts';
import { applyHdsEvent, type TimelineView } from './timeline-model.ts';

/** A scheduler whose frames the test runs by hand. */
function manualFrames() {
  const frames: Array<() => void> = [];
  const schedule: FrameScheduler = (callback) => {
    frames.push(callback);
    return () => frames.splice(frames.indexOf(callback) >>> 0, 1);
  };
  return { schedule, frames, paint: () => frames.splice(0).forEach((f) => f()) };
}

const delta = (content: string, turn = 1, reasoning = '', phase: 'plan' | 'final' = 'plan'): HdsEvent => ({ type: 'llm-delta', turn, phase, content, reasoning });

describe('FrameBatcher', () => {
  it('delivers any number of items pushed within one frame in a single call, in order, and asks for one frame', () => {
    const { schedule, frames, paint } = manualFrames();
    const delivered: number[][] = [];
    const batcher = new FrameBatcher<number>((items) => delivered.push(items), schedule);
    for (let i = 0; i < 1_250; i++) batcher.push(i);
    expect(frames).toHaveLength(1);
    expect(delivered).toHaveLength(0);
    paint();
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toEqual(Array.from({ length: 1_250 }, (_, i) => i));
    batcher.push(7);
    paint();
    expect(delivered).toEqual([delivered[0], [7]]);
    paint(); // nothing queued: no empty delivery
    expect(delivered).toHaveLength(2);
  });

  it('ends a frame after an item that starts a state, so the state is painted before its end', () => {
    const { schedule, paint } = manualFrames();
    const delivered: string[][] = [];
    const batcher = new FrameBatcher<string>((items) => delivered.push(items), schedule, (item) => item.startsWith('start'));
    for (const item of ['a', 'start 1', 'end 1', 'start 2', 'end 2', 'b']) batcher.push(item);
    paint();
    expect(delivered).toEqual([['a', 'start 1']]);
    paint();
    paint();
    expect(delivered).toEqual([['a', 'start 1'], ['end 1', 'start 2'], ['end 2', 'b']]);
    batcher.push('start 3');
    batcher.flush(); // the end of a run: everything at once
    expect(delivered.at(-1)).toEqual(['start 3']);
  });

  it('flush delivers at once and cancels the frame; discard drops the queue', () => {
    const { schedule, frames, paint } = manualFrames();
    const delivered: string[][] = [];
    const batcher = new FrameBatcher<string>((items) => delivered.push(items), schedule);
    batcher.push('a');
    batcher.push('b');
    batcher.flush();
    expect(delivered).toEqual([['a', 'b']]);
    expect(frames).toHaveLength(0);
    batcher.push('c');
    batcher.discard();
    paint();
    expect(delivered).toEqual([['a', 'b']]);
    expect(batcher.pending).toBe(0);
  });
});

describe('mergeDeltas', () => {
  it('joins consecutive deltas of one turn and keeps every other event where it was', () => {
    const events: HdsEvent[] = [
      { type: 'turn-start', turn: 1, phase: 'plan', prompt: 'p', atMs: 0 },
      delta('a', 1, 'r1'),
      delta('b', 1, 'r2'),
      { type: 'llm-end', turn: 1, phase: 'plan', call: { prompt: 'p', response: 'ab', reasoning: 'r1r2', startMs: 0, endMs: 1 } },
      delta('c', 2),
      delta('d', 2, '', 'final'),
      delta('e', 2, '', 'final'),
    ];
    expect(mergeDeltas(events)).toEqual([events[0], delta('ab', 1, 'r1r2'), events[3], delta('c', 2), delta('de', 2, '', 'final')]);
  });

  it('applied frame by frame, a 5 MB reply in 4 KB deltas builds the same timeline as event by event', () => {
    const start: TimelineView | null = applyHdsEvent(null, { type: 'run-start', question: 'q', config: { maxSearchCalls: 8 } as TimelineView['config'], startedAt: '' });
    const events: HdsEvent[] = [{ type: 'turn-start', turn: 1, phase: 'plan', prompt: 'p', atMs: 0 }];
    const chunk = 'x'.repeat(4_095) + '\n';
    for (let i = 0; i < 1_250; i++) events.push(delta(chunk));
    const oneByOne = events.reduce(applyHdsEvent, start);
    const { schedule, paint } = manualFrames();
    let view = start;
    const batcher = new FrameBatcher<HdsEvent>((items) => (view = mergeDeltas(items).reduce(applyHdsEvent, view)), schedule);
    let deliveries = 0;
    for (let i = 0; i < events.length; i++) {
      batcher.push(events[i]!);
      if (i % 100 === 99) {
        paint();
        deliveries++;
      }
    }
    paint();
    expect(view!.turns[0]!.response).toHaveLength(5_120_000);
    expect(view).toEqual(oneByOne);
    expect(deliveries).toBeLessThan(20);
  });
});
