// Live run events arrive far faster than a screen paints (a 5 MB reply is ~1,250 deltas): they are queued here, off
// React's render path, and handed over at most once per animation frame, with consecutive deltas of a turn merged.
import type { HdsEvent } from '../../core/index.ts';

/** Asks for `callback` before the next paint; returns a cancel function. */
export type FrameScheduler = (callback: () => void) => () => void;

/** requestAnimationFrame where there is one (a hidden tab pauses it; a timer keeps the queue from growing there). */
export const animationFrame: FrameScheduler = (callback) => {
  if (typeof requestAnimationFrame !== 'function') {
    const timer = setTimeout(callback, 16);
    return () => clearTimeout(timer);
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    callback();
  };
  const frame = requestAnimationFrame(once);
  const timer = setTimeout(once, 250);
  return () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
};

/**
 * Queues items and delivers them in order, in one call per frame; `flush` delivers at once. An item for which
 * `endsFrame` holds is the last of its frame (the rest wait for the next one), so a state it starts — a retrieval
 * running — is painted at least once even when its end arrives in the same frame.
 */
export class FrameBatcher<T> {
  private queue: T[] = [];
  private cancelFrame: (() => void) | null = null;

  constructor(
    private readonly deliver: (items: T[]) => void,
    private readonly schedule: FrameScheduler = animationFrame,
    private readonly endsFrame: (item: T) => boolean = () => false,
  ) {}

  push(item: T): void {
    this.queue.push(item);
    if (!this.cancelFrame) this.cancelFrame = this.schedule(() => this.deliverFrame());
  }

  private deliverFrame(): void {
    this.cancelFrame = null;
    const end = this.queue.findIndex(this.endsFrame);
    const items = end < 0 || end === this.queue.length - 1 ? this.queue : this.queue.slice(0, end + 1);
    this.queue = items === this.queue ? [] : this.queue.slice(end + 1);
    if (this.queue.length > 0) this.cancelFrame = this.schedule(() => this.deliverFrame());
    if (items.length > 0) this.deliver(items);
  }

  /** Delivers everything queued now (e.g. when the run ends, so the timeline shows it finished at once). */
  flush(): void {
    this.cancelFrame?.();
    this.cancelFrame = null;
    if (this.queue.length === 0) return;
    const items = this.queue;
    this.queue = [];
    this.deliver(items);
  }

  /** Drops what is queued (the job's result replaces it). */
  discard(): void {
    this.cancelFrame?.();
    this.cancelFrame = null;
    this.queue = [];
  }

  get pending(): number {
    return this.queue.length;
  }
}

/** The same events with each run of consecutive deltas of one turn joined into one delta (texts joined once). */
export function mergeDeltas(events: readonly HdsEvent[]): HdsEvent[] {
  const out: HdsEvent[] = [];
  let run: { turn: number; phase: 'plan' | 'final'; content: string[]; reasoning: string[] } | null = null;
  const close = () => {
    if (run) out.push({ type: 'llm-delta', turn: run.turn, phase: run.phase, content: run.content.join(''), reasoning: run.reasoning.join('') });
    run = null;
  };
  for (const event of events) {
    if (event.type !== 'llm-delta') {
      close();
      out.push(event);
      continue;
    }
    if (!run || run.turn !== event.turn || run.phase !== event.phase) {
      close();
      run = { turn: event.turn, phase: event.phase, content: [], reasoning: [] };
    }
    run.content.push(event.content);
    run.reasoning.push(event.reasoning);
  }
  close();
  return out;
}
