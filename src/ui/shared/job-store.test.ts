import { describe, expect, it } from 'vitest';
import { createJobStore, isActive, JobFailure, type JobContext } from './job-store.ts';

/** A job whose end the test decides; it records the context it was given. */
function controllable<R>() {
  let resolve!: (value: R) => void;
  let reject!: (error: unknown) => void;
  let context!: JobContext<number>;
  const promise = new Promise<R>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const work = (job: JobContext<number>) => {
    context = job;
    return promise;
  };
  return { work, resolve, reject, context: () => context };
}

function makeStore() {
  let clock = 1000;
  const store = createJobStore<{ name: string }, number, string, string[]>({ now: () => clock, cancelMessage: 'Stopped by the test' });
  return { store, advance: (ms: number) => (clock += ms) };
}

describe('createJobStore', () => {
  it('starts idle and runs a job to done with its result, progress and seconds', async () => {
    const { store, advance } = makeStore();
    expect(store.getState().state).toEqual({ status: 'idle' });
    const job = controllable<string>();
    const finished = store.getState().start({ name: 'a' }, 0, job.work);
    expect(store.getState().state).toEqual({ status: 'running', info: { name: 'a' }, startedAt: 1000, progress: 0 });
    job.context().progress(3);
    job.context().progress((last) => last + 1);
    expect(store.getState().state).toMatchObject({ status: 'running', progress: 4 });
    advance(2500);
    job.resolve('saved');
    await expect(finished).resolves.toBe('saved');
    expect(store.getState().state).toEqual({ status: 'done', info: { name: 'a' }, startedAt: 1000, seconds: 2.5, progress: 4, result: 'saved' });
  });

  it('renders every progress event as it arrives (no batching, no interpolation)', async () => {
    const { store } = makeStore();
    const seen: number[] = [];
    const unsubscribe = store.subscribe((s) => {
      if (s.state.status === 'running') seen.push(s.state.progress);
    });
    const job = controllable<string>();
    const finished = store.getState().start({ name: 'fine' }, 0, job.work);
    for (let i = 1; i <= 58; i++) job.context().progress(i);
    job.resolve('ok');
    await finished;
    unsubscribe();
    expect(seen).toEqual(Array.from({ length: 59 }, (_, i) => i));
  });

  it('does not start a second job while one runs or is cancelling', async () => {
    const { store } = makeStore();
    const first = controllable<string>();
    const running = store.getState().start({ name: 'first' }, 0, first.work);
    let secondRan = false;
    await expect(
      store.getState().start({ name: 'second' }, 0, async () => {
        secondRan = true;
        return 'x';
      }),
    ).resolves.toBeNull();
    store.getState().cancel();
    await expect(store.getState().start({ name: 'third' }, 0, async () => 'y')).resolves.toBeNull();
    expect(secondRan).toBe(false);
    expect(store.getState().state).toMatchObject({ status: 'cancelling', info: { name: 'first' } });
    first.reject(new DOMException('Stopped by the test', 'AbortError'));
    await running;
  });

  it('cancel() moves to cancelling at once and aborts the job signal; the end of the work makes it cancelled', async () => {
    const { store } = makeStore();
    const job = controllable<string>();
    const finished = store.getState().start({ name: 'c' }, 0, job.work);
    job.context().progress(5);
    store.getState().cancel();
    expect(store.getState().state).toMatchObject({ status: 'cancelling', progress: 5, info: { name: 'c' } });
    expect(isActive(store.getState().state)).toBe(true);
    const signal = job.context().signal;
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe('AbortError');
    expect((signal.reason as DOMException).message).toBe('Stopped by the test');
    // The worker still reports the batch it was in while it stops.
    job.context().progress(6);
    expect(store.getState().state).toMatchObject({ status: 'cancelling', progress: 6 });
    job.reject(signal.reason);
    await expect(finished).resolves.toBeNull();
    expect(store.getState().state).toEqual({ status: 'cancelled', info: { name: 'c' }, startedAt: 1000, progress: 6 });
  });

  it('cancel during cancelling changes nothing and aborts once', async () => {
    const { store } = makeStore();
    const job = controllable<string>();
    const finished = store.getState().start({ name: 'twice' }, 0, job.work);
    let aborts = 0;
    job.context().signal.addEventListener('abort', () => aborts++);
    store.getState().cancel();
    const cancelling = store.getState().state;
    store.getState().cancel();
    store.getState().cancel();
    expect(store.getState().state).toBe(cancelling);
    expect(aborts).toBe(1);
    job.reject(new DOMException('x', 'AbortError'));
    await finished;
    expect(store.getState().state.status).toBe('cancelled');
  });

  it('a job that finishes although cancel was asked is done (what it saved is there)', async () => {
    const { store } = makeStore();
    const job = controllable<string>();
    const finished = store.getState().start({ name: 'late' }, 0, job.work);
    store.getState().cancel();
    job.resolve('stored anyway');
    await expect(finished).resolves.toBe('stored anyway');
    expect(store.getState().state).toMatchObject({ status: 'done', result: 'stored anyway' });
  });

  it('a failure keeps the error words, and the details of a JobFailure', async () => {
    const { store } = makeStore();
    await expect(
      store.getState().start({ name: 'broken' }, 0, async () => {
        throw new Error('corpus.jsonl line 3: the field "text" is missing');
      }),
    ).resolves.toBeNull();
    expect(store.getState().state).toEqual({
      status: 'failed',
      info: { name: 'broken' },
      startedAt: 1000,
      progress: 0,
      message: 'corpus.jsonl line 3: the field "text" is missing',
    });
    store.getState().dismiss();
    await store.getState().start({ name: 'empty' }, 0, async () => {
      throw new JobFailure('No document could be loaded', ['a.jsonl line 1: not JSON']);
    });
    expect(store.getState().state).toMatchObject({ status: 'failed', message: 'No document could be loaded', details: ['a.jsonl line 1: not JSON'] });
    // A value thrown that is not an Error still reaches the user as words.
    await store.getState().start({ name: 'odd' }, 0, () => Promise.reject('the worker crashed'));
    expect(store.getState().state).toMatchObject({ status: 'failed', message: 'the worker crashed' });
  });

  it('an error after cancel counts as cancelled, except a JobFailure', async () => {
    const { store } = makeStore();
    const first = controllable<string>();
    const a = store.getState().start({ name: 'a' }, 0, first.work);
    store.getState().cancel();
    first.reject(new Error('The worker was terminated'));
    await a;
    expect(store.getState().state.status).toBe('cancelled');
    const second = controllable<string>();
    const b = store.getState().start({ name: 'b' }, 0, second.work);
    store.getState().cancel();
    second.reject(new JobFailure('Nothing survived', []));
    await b;
    expect(store.getState().state).toMatchObject({ status: 'failed', message: 'Nothing survived' });
  });

  it('cancel after done, failed, cancelled or when idle is a no-op', async () => {
    const { store } = makeStore();
    store.getState().cancel();
    expect(store.getState().state).toEqual({ status: 'idle' });
    await store.getState().start({ name: 'ok' }, 0, async () => 'r');
    const done = store.getState().state;
    store.getState().cancel();
    expect(store.getState().state).toBe(done);
    await store.getState().start({ name: 'bad' }, 0, async () => {
      throw new Error('no');
    });
    const failed = store.getState().state;
    store.getState().cancel();
    expect(store.getState().state).toBe(failed);
  });

  it('progress reported after the job ended is ignored', async () => {
    const { store } = makeStore();
    const job = controllable<string>();
    const finished = store.getState().start({ name: 'p' }, 0, job.work);
    job.resolve('r');
    await finished;
    job.context().progress(99);
    expect(store.getState().state).toMatchObject({ status: 'done', progress: 0 });
  });

  it('dismiss returns a finished job to idle and does nothing while one runs', async () => {
    const { store } = makeStore();
    const job = controllable<string>();
    const finished = store.getState().start({ name: 'd' }, 0, job.work);
    store.getState().dismiss();
    expect(store.getState().state.status).toBe('running');
    store.getState().cancel();
    store.getState().dismiss();
    expect(store.getState().state.status).toBe('cancelling');
    job.reject(new DOMException('x', 'AbortError'));
    await finished;
    store.getState().dismiss();
    expect(store.getState().state).toEqual({ status: 'idle' });
  });

  it('gives each job its own AbortController: cancelling one never aborts the next', async () => {
    const { store } = makeStore();
    const first = controllable<string>();
    const a = store.getState().start({ name: 'a' }, 0, first.work);
    store.getState().cancel();
    first.reject(new DOMException('x', 'AbortError'));
    await a;
    const second = controllable<string>();
    const b = store.getState().start({ name: 'b' }, 0, second.work);
    expect(second.context().signal.aborted).toBe(false);
    expect(second.context().signal).not.toBe(first.context().signal);
    second.resolve('fine');
    await expect(b).resolves.toBe('fine');
  });
});
