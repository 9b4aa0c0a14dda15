import type { Piscina } from 'piscina';
import { CONTROL, SandboxCall, type TaskInput } from '../../../src/sandbox/sandbox-call';

const input = { code: '1', stdin: '', args: [], timeoutMs: 50 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stand-in for Piscina: `behave` plays the worker's part on the call's control block. */
function fakePool(behave: (view: Int32Array, task: TaskInput, signal: AbortSignal) => Promise<unknown>) {
  const seen: { signal?: AbortSignal } = {};
  const pool = {
    run(task: TaskInput, options: { signal: AbortSignal }) {
      seen.signal = options.signal;
      return behave(new Int32Array(task.control), task, options.signal);
    },
  } as unknown as Piscina;
  return { pool, seen };
}

function start(view: Int32Array, task: TaskInput): boolean {
  Atomics.store(view, CONTROL.STARTED_AFTER_MS, Date.now() - task.submittedAt);
  return Atomics.compareExchange(view, CONTROL.STATE, CONTROL.QUEUED, CONTROL.RUNNING) === CONTROL.QUEUED;
}

const untilAborted = (signal: AbortSignal) =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));

describe('SandboxCall', () => {
  it('terminates a worker that overruns timeout + grace, and says so', async () => {
    const kills: string[] = [];
    const { pool, seen } = fakePool((view, task, signal) => {
      start(view, task);
      return untilAborted(signal); // a worker stuck outside the interrupt handler
    });
    const call = new SandboxCall(50, 50, (o) => kills.push(o));
    const began = Date.now();
    await expect(call.run(pool, input)).resolves.toEqual({ kind: 'killed', outcome: 'timeout' });
    expect(Date.now() - began).toBeGreaterThanOrEqual(95);
    expect(seen.signal?.aborted).toBe(true);
    expect(kills).toEqual(['timeout']);
  });

  it('does not count time spent in the queue against the script', async () => {
    const kills: string[] = [];
    const { pool } = fakePool(async (view, task) => {
      await sleep(200); // queued for longer than timeout + grace
      start(view, task);
      await sleep(20);
      return { outcome: 'ok' };
    });
    const call = new SandboxCall(50, 50, (o) => kills.push(o));
    await expect(call.run(pool, input)).resolves.toEqual({ kind: 'reply', reply: { outcome: 'ok' } });
    expect(kills).toEqual([]);
  });

  it('answers a call cancelled while queued at once, and the worker then skips it', async () => {
    let skipped: boolean | undefined;
    const { pool, seen } = fakePool(async (view, task) => {
      await sleep(100);
      skipped = !start(view, task);
      return { outcome: 'cancelled' };
    });
    const call = new SandboxCall(1000, 50, () => undefined);
    const running = call.run(pool, input);
    expect(call.cancel('panic')).toBe(true);
    expect(call.cancel('again')).toBe(false);
    await expect(running).resolves.toEqual({ kind: 'cancelled-queued' });
    expect(call.cancelReason).toBe('panic');
    await sleep(150);
    expect(skipped).toBe(true);
    // Piscina's copy was not aborted: that would terminate a worker.
    expect(seen.signal?.aborted).toBe(false);
  });

  it('flags a running call so its interrupt handler stops it', async () => {
    const { pool } = fakePool(async (view, task) => {
      start(view, task);
      while (Atomics.load(view, CONTROL.STATE) !== CONTROL.CANCELLED) await sleep(5);
      return { outcome: 'cancelled' };
    });
    const call = new SandboxCall(5000, 500, () => undefined);
    const running = call.run(pool, input);
    await sleep(20);
    call.cancel('stop');
    await expect(running).resolves.toEqual({ kind: 'reply', reply: { outcome: 'cancelled' } });
  });

  it('kills a running call that ignores its cancel flag after the grace period', async () => {
    const { pool } = fakePool((view, task, signal) => {
      start(view, task);
      return untilAborted(signal);
    });
    const call = new SandboxCall(10_000, 50, () => undefined);
    const running = call.run(pool, input);
    await sleep(20);
    const cancelledAt = Date.now();
    call.cancel('stop');
    await expect(running).resolves.toEqual({ kind: 'killed', outcome: 'cancelled' });
    expect(Date.now() - cancelledAt).toBeLessThan(1000);
  });

  it('passes a pool failure through', async () => {
    const { pool } = fakePool(async () => {
      throw new Error('worker exited with code: 1');
    });
    await expect(new SandboxCall(50, 50, () => undefined).run(pool, input)).rejects.toThrow(/worker exited/);
  });
});

describe('SandboxCall: the worker holding it goes away', () => {
  it('submits a call that never started again, and answers from the next worker', async () => {
    let runs = 0;
    const { pool } = fakePool(async (view, task) => {
      runs += 1;
      if (runs === 1) throw new Error('Terminating worker thread'); // killed for another call
      start(view, task);
      return { outcome: 'ok' };
    });
    const call = new SandboxCall(1000, 50, () => undefined);
    await expect(call.run(pool, input)).resolves.toEqual({ kind: 'reply', reply: { outcome: 'ok' } });
    expect(runs).toBe(2);
  });

  it('does not run again a call that had started: its failure is the answer', async () => {
    let runs = 0;
    const { pool } = fakePool(async (view, task) => {
      runs += 1;
      start(view, task);
      throw new Error('worker crashed');
    });
    const call = new SandboxCall(1000, 50, () => undefined);
    await expect(call.run(pool, input)).rejects.toThrow('worker crashed');
    expect(runs).toBe(1);
  });
});
