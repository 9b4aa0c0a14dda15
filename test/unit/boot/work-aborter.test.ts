import { isAppError } from '../../../schemas/errors';
import { createWorkAborter } from '../../../src/boot/work-aborter';

describe('createWorkAborter', () => {
  const sources = () => ({
    sandbox: { abortAll: jest.fn(() => 2) },
    egress: { abortAll: jest.fn(() => 1) },
    connectors: { abortAll: jest.fn(() => 3) },
  });

  it('aborts every tracked call and asks each service to cancel the rest', () => {
    const s = sources();
    const work = createWorkAborter(s);
    const a = work.track({ accountId: 'a' }, new AbortController().signal);
    const b = work.track({}, new AbortController().signal);
    expect(work.inFlight()).toBe(2);
    expect(work.abortAll('panic')).toEqual({ calls: 2, sandbox: 2, egress: 1, connectors: 3 });
    expect(a.signal.aborted && b.signal.aborted).toBe(true);
    expect(isAppError(a.signal.reason) && a.signal.reason.code).toBe('UNAVAILABLE');
    expect(a.signal.reason.details).toEqual({ reason: 'cancelled' });
    expect(work.inFlight()).toBe(0);
    expect(s.sandbox.abortAll).toHaveBeenCalledWith('panic');
  });

  it('with a filter, aborts only matching calls; process-wide services are left alone', () => {
    const s = sources();
    const work = createWorkAborter(s);
    const inWs = work.track({ accountId: 'a', workspaceId: 'w1' }, new AbortController().signal);
    const otherWs = work.track({ accountId: 'a', workspaceId: 'w2' }, new AbortController().signal);
    const noWs = work.track({}, new AbortController().signal);
    expect(work.abortAll('panic', { workspaceId: 'w1' })).toEqual({
      calls: 1,
      sandbox: 0,
      egress: 0,
      connectors: 0,
    });
    expect([inWs.signal.aborted, otherWs.signal.aborted, noWs.signal.aborted]).toEqual([true, false, false]);
    expect(s.sandbox.abortAll).not.toHaveBeenCalled();
    expect(s.connectors.abortAll).not.toHaveBeenCalled();
    expect(work.abortAll('panic', { accountId: 'a' })).toEqual({
      calls: 1,
      sandbox: 0,
      egress: 0,
      connectors: 3,
    });
    expect(s.connectors.abortAll).toHaveBeenCalledWith('panic', { accountId: 'a' });
    expect(otherWs.signal.aborted).toBe(true);
    expect(noWs.signal.aborted).toBe(false);
  });

  it("follows the call's own signal and forgets released calls", () => {
    const work = createWorkAborter();
    const caller = new AbortController();
    const tracked = work.track({}, caller.signal);
    caller.abort('gone');
    expect(tracked.signal.reason).toBe('gone');
    tracked.release();
    tracked.release();
    expect(work.inFlight()).toBe(0);
    expect(work.abortAll('panic').calls).toBe(0);

    const already = new AbortController();
    already.abort('early');
    const late = work.track({}, already.signal);
    expect(late.signal.aborted).toBe(true);
    expect(work.inFlight()).toBe(0);
  });
});
