import { Observable, type Subscriber } from 'rxjs';
import { errors } from '../../../schemas/errors';
import { PendingAsk, PendingStream, PendingTable } from '../../../src/kernel/pending-requests';

function recordStream() {
  const events: string[] = [];
  let subscriber!: Subscriber<unknown>;
  new Observable((s) => {
    subscriber = s;
  }).subscribe({
    next: (v) => events.push(`next ${String(v)}`),
    error: (e: { code: string }) => events.push(`error ${e.code}`),
    complete: () => events.push('complete'),
  });
  return { events, stream: new PendingStream('s', subscriber) };
}

describe('PendingStream', () => {
  it('emits items in seq order, buffering early ones and dropping repeats', () => {
    const { events, stream } = recordStream();
    expect(stream.onBody({ kind: 'next', seq: 1, value: 'b' })).toBe(false);
    expect(stream.onBody({ kind: 'next', seq: 0, value: 'a' })).toBe(false);
    expect(stream.onBody({ kind: 'next', seq: 0, value: 'a again' })).toBe(false);
    expect(stream.onBody({ kind: 'complete', seq: 3 })).toBe(false); // item 2 still on its way
    expect(stream.onBody({ kind: 'next', seq: 2, value: 'c' })).toBe(true);
    expect(events).toEqual(['next a', 'next b', 'next c', 'complete']);
    expect(stream.done).toBe(true);
  });

  it('turns a plain reply into one item, and errors with the AppError of an error body', () => {
    const one = recordStream();
    expect(one.stream.onBody({ kind: 'reply', value: 'x' })).toBe(true);
    expect(one.events).toEqual(['next x', 'complete']);
    const none = recordStream();
    none.stream.onBody({ kind: 'reply', value: undefined });
    expect(none.events).toEqual(['complete']);
    const failed = recordStream();
    expect(failed.stream.onBody({ kind: 'error', error: { error: 'No', code: 'NOT_FOUND' } })).toBe(true);
    expect(failed.events).toEqual(['error NOT_FOUND']);
  });
});

describe('PendingAsk', () => {
  it('resolves a reply, rejects an error, and collects stream items until complete', async () => {
    const settle = () => {
      let ask!: PendingAsk;
      const result = new Promise((resolve, reject) => (ask = new PendingAsk('a', resolve, reject)));
      return { ask, result };
    };
    const r = settle();
    r.ask.onBody({ kind: 'reply', value: 3 });
    await expect(r.result).resolves.toBe(3);
    const e = settle();
    e.ask.onBody({ kind: 'error', error: { error: 'Stop', code: 'CONFLICT', at: 1 } });
    await expect(e.result).rejects.toMatchObject({ code: 'CONFLICT', message: 'Stop', details: { at: 1 } });
    const s = settle();
    expect(s.ask.onBody({ kind: 'next', seq: 1, value: 'b' })).toBe(false);
    expect(s.ask.onBody({ kind: 'next', seq: 0, value: 'a' })).toBe(false);
    expect(s.ask.onBody({ kind: 'complete', seq: 2 })).toBe(true);
    await expect(s.result).resolves.toEqual(['a', 'b']);
  });
});

describe('PendingTable', () => {
  afterEach(() => jest.useRealTimers());

  function entry(id: string) {
    const bodies: unknown[] = [];
    const failures: string[] = [];
    return {
      bodies,
      failures,
      entry: {
        id,
        onBody: (b: { kind: string }) => (bodies.push(b), b.kind !== 'next'),
        fail: (e: { code: string }) => failures.push(e.code),
      },
    };
  }

  it('dispatches to every request waiting on the same id, and forgets them when done', () => {
    const table = new PendingTable();
    const a = entry('x');
    const b = entry('x');
    table.add(a.entry as never, 1000);
    table.add(b.entry as never, 1000);
    expect(table.dispatch('x', { kind: 'next', seq: 0, value: 1 })).toBe(true);
    expect(table.dispatch('x', { kind: 'reply', value: 2 })).toBe(true);
    expect(a.bodies).toHaveLength(2);
    expect(b.bodies).toHaveLength(2);
    expect(table.size).toBe(0);
    expect(table.dispatch('x', { kind: 'reply', value: 3 })).toBe(false);
  });

  it('fails a request at its deadline without touching the others of the same id', () => {
    jest.useFakeTimers();
    const table = new PendingTable();
    const short = entry('x');
    const long = entry('x');
    table.add(short.entry as never, 100);
    table.add(long.entry as never, 1000);
    jest.advanceTimersByTime(100);
    expect(short.failures).toEqual(['DEADLINE_EXCEEDED']);
    expect(long.failures).toEqual([]);
    table.dispatch('x', { kind: 'reply', value: 1 });
    expect(long.bodies).toHaveLength(1);
    expect(short.bodies).toHaveLength(0);
    expect(table.size).toBe(0);
  });

  it('fails everything on failAll', () => {
    const table = new PendingTable();
    const items = [entry('x'), entry('x'), entry('y')];
    for (const i of items) table.add(i.entry as never, 1000);
    table.failAll(errors.unavailable('stopped'));
    expect(items.map((i) => i.failures)).toEqual([['UNAVAILABLE'], ['UNAVAILABLE'], ['UNAVAILABLE']]);
    expect(table.size).toBe(0);
  });
});
