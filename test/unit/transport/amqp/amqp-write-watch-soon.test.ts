import type { ChannelModel } from 'amqplib';
import { WriteWatch } from '../../../../src/transport/amqp/amqp-write-watch';

/**
 * The shape of amqplib's multiplexer the watch relies on (test/integration/amqp-write-watch.test.ts
 * pins it on a real connection): `_scheduleRead` schedules the writer and sets `scheduledRead`;
 * `_readIncoming` drains the channels into the socket.
 */
function fakeModel() {
  const muxer = {
    scheduledRead: false,
    _scheduleRead(this: { scheduledRead: boolean }) {
      this.scheduledRead = true;
    },
    _readIncoming: jest.fn(),
  };
  const model = { connection: { muxer } } as unknown as ChannelModel;
  return { model, muxer };
}

const endOfTick = () => new Promise<void>((resolve) => process.nextTick(resolve));
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function installed(model: ChannelModel): WriteWatch {
  const watch = WriteWatch.install(model);
  if (!watch) throw new Error('the fake muxer was refused');
  return watch;
}

describe('WriteWatch.writeSoon', () => {
  it('drains the channels once, at the end of the tick, when a write is scheduled', async () => {
    const { model, muxer } = fakeModel();
    const watch = installed(model);
    watch.writeSoon();
    muxer._scheduleRead(); // a publish in the same tick schedules the writer
    expect(muxer._readIncoming).not.toHaveBeenCalled(); // not synchronously
    await endOfTick();
    expect(muxer._readIncoming).toHaveBeenCalledTimes(1);
    expect(muxer._readIncoming.mock.contexts[0]).toBe(muxer); // called as a method of the muxer
  });

  it('runs before the next turn of the event loop (before the writer’s own setImmediate)', async () => {
    const { model, muxer } = fakeModel();
    const watch = installed(model);
    const order: string[] = [];
    muxer._readIncoming.mockImplementation(() => order.push('drain'));
    setImmediate(() => order.push('immediate'));
    muxer._scheduleRead();
    watch.writeSoon();
    await nextTurn();
    expect(order).toEqual(['drain', 'immediate']);
  });

  it('does nothing when no write is scheduled', async () => {
    const { model, muxer } = fakeModel();
    const watch = installed(model);
    watch.writeSoon();
    await endOfTick();
    await nextTurn();
    expect(muxer._readIncoming).not.toHaveBeenCalled();
  });

  it('drains once for several calls in one tick, and again in a later tick', async () => {
    const { model, muxer } = fakeModel();
    const watch = installed(model);
    muxer._scheduleRead();
    watch.writeSoon();
    watch.writeSoon();
    watch.writeSoon();
    await nextTurn();
    expect(muxer._readIncoming).toHaveBeenCalledTimes(1);
    watch.writeSoon();
    watch.writeSoon();
    await nextTurn();
    expect(muxer._readIncoming).toHaveBeenCalledTimes(2);
  });

  it('looks at the writer when the tick ends, not when writeSoon is called', async () => {
    const { model, muxer } = fakeModel();
    const watch = installed(model);
    muxer._scheduleRead();
    watch.writeSoon();
    muxer.scheduledRead = false; // the writer ran meanwhile: nothing is left to drain
    await nextTurn();
    expect(muxer._readIncoming).not.toHaveBeenCalled();
  });
});

describe('WriteWatch.install', () => {
  it('installs once per connection, and tells waiting work once when the next write is scheduled', () => {
    const { model, muxer } = fakeModel();
    const watch = installed(model);
    expect(WriteWatch.install(model)).toBe(watch);
    expect(WriteWatch.of(model)).toBe(watch);
    const calls: boolean[] = [];
    watch.onNextWrite(() => calls.push(watch.scheduled));
    expect(watch.scheduled).toBe(false);
    muxer._scheduleRead();
    expect(calls).toEqual([true]);
    muxer._scheduleRead(); // already scheduled: not a new write
    muxer.scheduledRead = false;
    muxer._scheduleRead();
    expect(calls).toEqual([true]);
  });

  it.each([
    ['no connection', () => ({})],
    ['no muxer', () => ({ connection: {} })],
    ['no _scheduleRead', () => ({ connection: { muxer: { scheduledRead: false, _readIncoming: () => 0 } } })],
    [
      'no _readIncoming',
      () => ({ connection: { muxer: { scheduledRead: false, _scheduleRead: () => undefined } } }),
    ],
    [
      'scheduledRead not a boolean',
      () => ({ connection: { muxer: { _scheduleRead: () => undefined, _readIncoming: () => 0 } } }),
    ],
  ])('returns undefined when amqplib’s internals are not as expected (%s)', (_what, make) => {
    const model = make() as unknown as ChannelModel;
    expect(WriteWatch.install(model)).toBeUndefined();
    expect(WriteWatch.of(model)).toBeUndefined();
  });
});
