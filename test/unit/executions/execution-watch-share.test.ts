import { Subject } from 'rxjs';
import type { Principal } from '../../../schemas/auth';
import type { ExecutionEvent } from '../../../schemas/messages/executions';
import { SharedWatches } from '../../../actors/executions/execution-watch-share';

const auth: Principal = { subjectType: 'account', accountId: 'acc_1', via: 'bearer' };
const state = (status: string): ExecutionEvent =>
  ({ type: 'execution', execution: { id: 'exe_1', status } }) as unknown as ExecutionEvent;
const log = (seq: number): ExecutionEvent =>
  ({ type: 'log', executionId: 'exe_1', log: { seq } }) as unknown as ExecutionEvent;
const done = (status: string): ExecutionEvent =>
  ({ type: 'done', executionId: 'exe_1', status }) as unknown as ExecutionEvent;
const describeEvent = (e: ExecutionEvent) =>
  e.type === 'execution'
    ? `execution:${(e as { execution: { status: string } }).execution.status}`
    : e.type === 'log'
      ? `log:${(e as { log: { seq: number } }).log.seq}`
      : e.type === 'done'
        ? `done:${e.status}`
        : e.type;

/** A SharedWatches over a fake watch, with snapshots answered when the test says so. */
function setup() {
  const upstreams: Array<Subject<ExecutionEvent>> = [];
  const snapshots: Array<(events: ExecutionEvent[]) => void> = [];
  const watches = new SharedWatches(
    () => {
      const s = new Subject<ExecutionEvent>();
      upstreams.push(s);
      return s;
    },
    () => new Promise((resolve) => snapshots.push(resolve)),
  );
  const follow = () => {
    const got: string[] = [];
    let ended = false;
    const sub = watches.watch('exe_1', auth).subscribe({
      next: (e) => got.push(describeEvent(e)),
      complete: () => (ended = true),
    });
    return { got, ended: () => ended, sub };
  };
  return { watches, upstreams, snapshots, follow };
}

describe('SharedWatches', () => {
  it('opens one watch for many subscribers; a later one gets its own snapshot, not the opener’s', async () => {
    const { watches, upstreams, snapshots, follow } = setup();
    const first = follow();
    const second = follow(); // joins before the actor's snapshot came
    expect(upstreams).toHaveLength(1);
    upstreams[0].next(state('PAUSED')); // the opener's snapshot
    upstreams[0].next(log(1));
    snapshots[0]([state('PAUSED')]);
    await Promise.resolve();
    upstreams[0].next(log(2));
    const third = follow(); // joins after it
    expect(upstreams).toHaveLength(1);
    snapshots[1]([state('RUNNING')]);
    await Promise.resolve();
    upstreams[0].next(log(3));
    upstreams[0].next(done('COMPLETED'));
    upstreams[0].complete();

    expect(first.got).toEqual(['execution:PAUSED', 'log:1', 'log:2', 'log:3', 'done:COMPLETED']);
    expect(second.got).toEqual(['execution:PAUSED', 'log:1', 'log:2', 'log:3', 'done:COMPLETED']);
    expect(third.got).toEqual(['execution:RUNNING', 'log:3', 'done:COMPLETED']);
    expect([first, second, third].every((s) => s.ended())).toBe(true);
    expect(watches.size()).toBe(0);
  });

  it('ends a later subscriber after its snapshot when the watch ended meanwhile', async () => {
    const { upstreams, snapshots, follow } = setup();
    const first = follow();
    upstreams[0].next(state('RUNNING'));
    const late = follow();
    upstreams[0].next(done('COMPLETED'));
    upstreams[0].complete();
    expect(late.ended()).toBe(false);
    snapshots[0]([state('COMPLETED'), done('COMPLETED')]);
    await Promise.resolve();
    expect(first.got).toEqual(['execution:RUNNING', 'done:COMPLETED']);
    expect(late.got).toEqual(['execution:COMPLETED', 'done:COMPLETED']);
    expect(late.ended()).toBe(true);
  });

  it('keeps the watch while a subscriber remains, closes it with the last, opens a new one after', () => {
    const { watches, upstreams, follow } = setup();
    const a = follow();
    const b = follow();
    a.sub.unsubscribe();
    expect(upstreams[0].observed).toBe(true);
    b.sub.unsubscribe();
    expect(upstreams[0].observed).toBe(false);
    expect(watches.size()).toBe(0);
    follow();
    expect(upstreams).toHaveLength(2);
  });
});
