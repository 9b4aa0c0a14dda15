import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { AcceptFirst } from '../../../src/http/accept-first';
import { IdleLane } from '../../../src/http/idle-lane';

const turn = () => new Promise((r) => setImmediate(r));

describe('IdleLane: the rest of old streams waits behind first answers', () => {
  it('starts waiting work only once no first answer is being prepared', async () => {
    const lane = new IdleLane(4, 10_000);
    const started: string[] = [];
    let releaseFirst!: () => void;
    const first = lane.first(() => new Promise<void>((r) => (releaseFirst = r)));
    const rest = lane.run(async () => {
      started.push('rest');
      return 42;
    });
    for (let i = 0; i < 5; i += 1) await turn();
    expect(started).toEqual([]);
    expect(lane.waiting).toBe(1);
    releaseFirst();
    await first;
    await expect(rest).resolves.toBe(42);
    expect(started).toEqual(['rest']);
  });

  it('starts waiting work only once no request is queued at the front door (a burst being accepted)', async () => {
    let runFront!: () => void;
    // The front door's turns run only when told.
    const front = new AcceptFirst({
      later: (fn) => {
        runFront = fn;
      },
    });
    const server = new EventEmitter() as unknown as http.Server;
    front.attach(server, () => undefined);
    server.emit('request', { headers: {}, socket: { remoteAddress: 'x' } }, {});
    const lane = new IdleLane(4, 10_000, 0);
    const started: string[] = [];
    const rest = lane.run(async () => {
      started.push('rest');
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(started).toEqual([]);
    runFront(); // the queued request runs: nothing waits at the front door any more
    await rest;
    expect(started).toEqual(['rest']);
    server.emit('close');
  });

  it('waits `quietMs` after the last first answer began (a burst still arriving)', async () => {
    const lane = new IdleLane(4, 10_000, 60);
    // Timers never fire early: from before the first answer began, the wait is at least the quiet
    // period however loaded the machine is (a lower bound only).
    const at = Date.now();
    await lane.first(() => Promise.resolve());
    await lane.run(() => Promise.resolve());
    expect(Date.now() - at).toBeGreaterThanOrEqual(55);
  });

  it('starts at most `perTurn` pieces per turn of the event loop, in order', async () => {
    const lane = new IdleLane(2, 10_000);
    const started: number[] = [];
    const all = Array.from({ length: 5 }, (_, i) =>
      lane.run(async () => {
        started.push(i);
      }),
    );
    await turn();
    expect(started).toEqual([0, 1]);
    await turn();
    expect(started).toEqual([0, 1, 2, 3]);
    await Promise.all(all);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('starts work that waited `maxWaitMs` even while first answers keep coming (no starvation)', async () => {
    const lane = new IdleLane(4, 50);
    let releaseFirst!: () => void;
    const at = Date.now();
    const first = lane.first(() => new Promise<void>((r) => (releaseFirst = r)));
    await lane.run(() => Promise.resolve());
    expect(Date.now() - at).toBeGreaterThanOrEqual(45);
    releaseFirst();
    await first;
  });

  it('passes on a failure of the work, and of a first answer', async () => {
    const lane = new IdleLane();
    await expect(lane.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(
      lane.run(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    await expect(lane.first(() => Promise.reject(new Error('first')))).rejects.toThrow('first');
    await expect(lane.run(() => Promise.resolve('after'))).resolves.toBe('after');
  });
});
