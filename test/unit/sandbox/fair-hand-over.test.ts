import { FairHandOver } from '../../../src/sandbox/fair-hand-over';
import { CONTROL, type TaskInput } from '../../../src/sandbox/sandbox-call';

/** A stand-in for Piscina: every task it is given waits until the test settles it. */
function fakePool() {
  const given: Array<{ n: number; resolve(v: unknown): void; reject(e: unknown): void }> = [];
  let running = 0;
  let mostAtOnce = 0;
  const pool = {
    run(task: TaskInput) {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      return new Promise((resolve, reject) => {
        const done =
          (fn: (v: unknown) => void) =>
          (v: unknown): void => {
            running -= 1;
            fn(v);
          };
        given.push({ n: Number(task.code), resolve: done(resolve), reject: done(reject) });
      });
    },
  };
  return { pool, given, mostAtOnce: () => mostAtOnce };
}

const task = (n: number): TaskInput => ({
  code: String(n),
  stdin: '',
  args: [],
  timeoutMs: 1000,
  control: new SharedArrayBuffer(8),
  submittedAt: Date.now(),
});
const signal = new AbortController().signal;
const tick = () => new Promise((r) => setImmediate(r));

describe('FairHandOver, one owner', () => {
  it('hands over at most `capacity` tasks at once, the others in the order they came', async () => {
    const { pool, given, mostAtOnce } = fakePool();
    const handOver = new FairHandOver(pool, 2);
    const results = Array.from({ length: 6 }, (_, n) => handOver.run(task(n), { signal }));
    expect(given.map((g) => g.n)).toEqual([0, 1]);
    expect(handOver.queued).toBe(4);

    given[1].resolve('one');
    await tick();
    expect(given.map((g) => g.n)).toEqual([0, 1, 2]);
    // A task that came meanwhile waits behind the ones already waiting.
    results.push(handOver.run(task(6), { signal }));
    for (let k = 0; k < 7; k++) {
      if (k !== 1) given[k].resolve(k);
      await tick();
    }
    expect(given.map((g) => g.n)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(mostAtOnce()).toBe(2);
    expect(handOver.queued).toBe(0);
    await expect(results[1]).resolves.toBe('one');
  });

  it('passes a task through at once while there is room and nothing waits', async () => {
    const { pool, given } = fakePool();
    const handOver = new FairHandOver(pool, 1);
    const first = handOver.run(task(7), { signal });
    expect(given).toHaveLength(1);
    given[0].resolve('seven');
    await expect(first).resolves.toBe('seven');
    const second = handOver.run(task(8), { signal });
    expect(given).toHaveLength(2);
    given[1].resolve('eight');
    await expect(second).resolves.toBe('eight');
  });

  it('drops a task cancelled while it waited (answered undefined, never handed over)', async () => {
    const { pool, given } = fakePool();
    const handOver = new FairHandOver(pool, 1);
    const running = handOver.run(task(0), { signal });
    const doomed = task(1);
    const dropped = handOver.run(doomed, { signal });
    const kept = handOver.run(task(2), { signal });
    Atomics.store(new Int32Array(doomed.control), CONTROL.STATE, CONTROL.CANCELLED);
    given[0].resolve('zero');
    await expect(running).resolves.toBe('zero');
    await expect(dropped).resolves.toBeUndefined();
    await tick();
    expect(given.map((g) => g.n)).toEqual([0, 2]);
    given[1].resolve('two');
    await expect(kept).resolves.toBe('two');
  });

  it("passes on the pool's rejection and frees the place for the next task", async () => {
    const { pool, given } = fakePool();
    const handOver = new FairHandOver(pool, 1);
    const failing = handOver.run(task(0), { signal });
    const next = handOver.run(task(1), { signal });
    given[0].reject(new Error('worker died'));
    await expect(failing).rejects.toThrow('worker died');
    await tick();
    expect(given.map((g) => g.n)).toEqual([0, 1]);
    given[1].reject(new Error('again'));
    await expect(next).rejects.toThrow('again');
  });

  it('keeps its order over many tasks (the waiting line is compacted as it goes)', async () => {
    const { pool, given } = fakePool();
    const handOver = new FairHandOver(pool, 3);
    const all = Array.from({ length: 500 }, (_, n) => handOver.run(task(n), { signal }));
    for (let i = 0; i < 500; i++) {
      given[i].resolve(i);
      await tick();
    }
    expect(given.map((g) => g.n)).toEqual(Array.from({ length: 500 }, (_, n) => n));
    await expect(Promise.all(all)).resolves.toEqual(Array.from({ length: 500 }, (_, n) => n));
  });

  it('refuses a capacity below 1, and a share outside 1..capacity', () => {
    expect(() => new FairHandOver(fakePool().pool, 0)).toThrow(TypeError);
    expect(() => new FairHandOver(fakePool().pool, 2, 0)).toThrow(TypeError);
    expect(() => new FairHandOver(fakePool().pool, 2, 3)).toThrow(TypeError);
    expect(() => new FairHandOver(fakePool().pool, 2, 1.5)).toThrow(TypeError);
  });
});

describe('FairHandOver, several owners', () => {
  /** Settles the task handed over as number `n` and lets the hand-over react. */
  const settle = async (given: ReturnType<typeof fakePool>['given'], n: number) => {
    given.find((g) => g.n === n)!.resolve(n);
    await tick();
  };
  const as = (owner: string) => ({ signal, owner });

  it("keeps one owner's calls within its share, leaving the other places to the others", async () => {
    const { pool, given } = fakePool();
    const handOver = new FairHandOver(pool, 3, 2);
    // S sends five long calls: two leave, three wait although a place is free.
    for (let n = 0; n < 5; n++) void handOver.run(task(n), as('S'));
    expect(given.map((g) => g.n)).toEqual([0, 1]);
    expect(handOver.queued).toBe(3);
    // T's call takes the free place at once, ahead of S's waiting calls.
    const t = handOver.run(task(100), as('T'));
    expect(given.map((g) => g.n)).toEqual([0, 1, 100]);
    await settle(given, 100);
    await expect(t).resolves.toBe(100);
    // Its place is not given to S (already at its share).
    expect(given.map((g) => g.n)).toEqual([0, 1, 100]);
    // When one of S's calls ends, the next of S's leaves, in S's order.
    await settle(given, 0);
    expect(given.map((g) => g.n)).toEqual([0, 1, 100, 2]);
  });

  it('serves the owners that wait in turn (round robin), each in its own order', async () => {
    const { pool, given } = fakePool();
    const handOver = new FairHandOver(pool, 1);
    void handOver.run(task(0), as('A'));
    // A sends three more before B and C send theirs. A is being served already (its call 0 runs):
    // B and C, with nothing running, come first; then A, B, A, A in turn.
    for (const n of [1, 2, 3]) void handOver.run(task(n), as('A'));
    for (const n of [10, 11]) void handOver.run(task(n), as('B'));
    void handOver.run(task(20), as('C'));
    expect(handOver.waitingOwners).toBe(3);
    for (let k = 0; k < 6; k++) await settle(given, given[given.length - 1].n);
    expect(given.map((g) => g.n)).toEqual([0, 10, 20, 1, 11, 2, 3]);
    await settle(given, 3);
    expect(handOver.queued).toBe(0);
    expect(handOver.waitingOwners).toBe(0);
  });

  it('gives a place to an owner that came later before a second call of one already served', async () => {
    const { pool, given } = fakePool();
    const handOver = new FairHandOver(pool, 1);
    void handOver.run(task(0), as('A'));
    void handOver.run(task(1), as('A'));
    void handOver.run(task(2), as('A'));
    await settle(given, 0); // A's 1 leaves; A goes to the back of the turns.
    void handOver.run(task(10), as('B'));
    await settle(given, 1);
    expect(given.map((g) => g.n)).toEqual([0, 1, 10]);
    await settle(given, 10);
    expect(given.map((g) => g.n)).toEqual([0, 1, 10, 2]);
  });

  it('drops cancelled calls without spending their owner’s turn', async () => {
    const { pool, given } = fakePool();
    const handOver = new FairHandOver(pool, 1);
    void handOver.run(task(0), as('A'));
    const doomed = [task(10), task(11)];
    const dropped = doomed.map((t) => handOver.run(t, as('B')));
    void handOver.run(task(12), as('B'));
    void handOver.run(task(1), as('A'));
    for (const t of doomed) Atomics.store(new Int32Array(t.control), CONTROL.STATE, CONTROL.CANCELLED);
    expect(handOver.queued).toBe(4);
    await settle(given, 0);
    // B was next in turn: its cancelled calls are dropped and its live one leaves, before A's.
    await expect(Promise.all(dropped)).resolves.toEqual([undefined, undefined]);
    expect(given.map((g) => g.n)).toEqual([0, 12]);
    await settle(given, 12);
    expect(given.map((g) => g.n)).toEqual([0, 12, 1]);
    expect(handOver.queued).toBe(0);
  });

  it('forgets an owner whose waiting calls were all cancelled', async () => {
    const { pool, given } = fakePool();
    const handOver = new FairHandOver(pool, 1);
    void handOver.run(task(0), as('A'));
    const doomed = task(10);
    const dropped = handOver.run(doomed, as('B'));
    Atomics.store(new Int32Array(doomed.control), CONTROL.STATE, CONTROL.CANCELLED);
    await settle(given, 0);
    await expect(dropped).resolves.toBeUndefined();
    expect(handOver.waitingOwners).toBe(0);
    expect(handOver.queued).toBe(0);
    // The place is free again: the next call passes at once.
    void handOver.run(task(1), as('B'));
    expect(given.map((g) => g.n)).toEqual([0, 1]);
  });

  it("frees an owner's place when its call is rejected", async () => {
    const { pool, given } = fakePool();
    const handOver = new FairHandOver(pool, 2, 1);
    const failing = handOver.run(task(0), as('S'));
    void handOver.run(task(1), as('S'));
    given[0].reject(new Error('worker died'));
    await expect(failing).rejects.toThrow('worker died');
    await tick();
    expect(given.map((g) => g.n)).toEqual([0, 1]);
  });

  it('never hands over more than the capacity, however many owners wait', async () => {
    const { pool, given, mostAtOnce } = fakePool();
    const handOver = new FairHandOver(pool, 3, 2);
    const owners = ['A', 'B', 'C', 'D', 'E'];
    const all = Array.from({ length: 40 }, (_, n) => handOver.run(task(n), as(owners[n % owners.length])));
    // Settle the oldest call still running, until every call has run.
    for (let k = 0; k < 40; k++) await settle(given, given[k].n);
    await expect(Promise.all(all)).resolves.toHaveLength(40);
    expect(mostAtOnce()).toBe(3);
    expect(new Set(given.map((g) => g.n)).size).toBe(40);
    // Each owner's calls left in the order they came.
    for (const owner of owners) {
      const mine = given.map((g) => g.n).filter((n) => owners[n % owners.length] === owner);
      expect(mine).toEqual([...mine].sort((a, b) => a - b));
    }
  });
});
