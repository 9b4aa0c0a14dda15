import type { Channel, ConsumeMessage } from 'amqplib';
import { AckBatcher } from '../../../../src/transport/amqp/amqp-acks';

const message = (tag: number) => ({ fields: { deliveryTag: tag } }) as ConsumeMessage;
const tick = () => new Promise((resolve) => setImmediate(resolve));

function fakeChannel() {
  const frames: string[] = [];
  const channel = {
    ack: (m: ConsumeMessage, multiple?: boolean) =>
      frames.push(`ack ${m.fields.deliveryTag}${multiple ? ' multiple' : ''}`),
    nack: (m: ConsumeMessage, _all: boolean, requeue: boolean) =>
      frames.push(`nack ${m.fields.deliveryTag}${requeue ? ' requeue' : ''}`),
  } as unknown as Channel;
  return { channel, frames };
}

describe('AckBatcher', () => {
  it('acknowledges a settled run at the head with one multiple ack', async () => {
    const { channel, frames } = fakeChannel();
    const acks = new AckBatcher(channel, () => false);
    const [m1, m2, m3] = [1, 2, 3].map(message);
    [m1, m2, m3].forEach((m) => acks.delivered(m));
    acks.ack(m2);
    acks.ack(m1);
    acks.ack(m3);
    expect(frames).toEqual([]); // coalesced until the end of the event-loop turn
    await tick();
    expect(frames).toEqual(['ack 3 multiple']);
  });

  it('never covers a delivery whose turn is still running', async () => {
    const { channel, frames } = fakeChannel();
    const acks = new AckBatcher(channel, () => false);
    const [m1, m2, m3, m4] = [1, 2, 3, 4].map(message);
    [m1, m2, m3, m4].forEach((m) => acks.delivered(m));
    acks.ack(m1);
    acks.ack(m3);
    acks.ack(m4);
    await tick();
    expect(frames).toEqual(['ack 1', 'ack 3', 'ack 4']); // 2 is still running
    acks.ack(m2);
    await tick();
    expect(frames.slice(3)).toEqual(['ack 2']);
  });

  it('sends nacks at once and leaves them out of later multiple acks', async () => {
    const { channel, frames } = fakeChannel();
    const acks = new AckBatcher(channel, () => false);
    const [m1, m2, m3] = [1, 2, 3].map(message);
    [m1, m2, m3].forEach((m) => acks.delivered(m));
    acks.nack(m1, true);
    acks.nack(m2, false);
    expect(frames).toEqual(['nack 1 requeue', 'nack 2']);
    acks.ack(m3);
    await tick();
    expect(frames.slice(2)).toEqual(['ack 3']);
  });

  it('settles nothing once its channel has closed', async () => {
    const { channel, frames } = fakeChannel();
    let closed = false;
    const acks = new AckBatcher(channel, () => closed);
    const m1 = message(1);
    acks.delivered(m1);
    acks.ack(m1);
    closed = true;
    await tick();
    acks.nack(message(2), true);
    expect(frames).toEqual([]);
  });
});

/** A stand-in for the connection's WriteWatch: `write()` plays amqplib scheduling its writer. */
function fakeWatch() {
  let waiting: Array<() => void> = [];
  const watch = {
    scheduled: false,
    onNextWrite: (fn: () => void) => waiting.push(fn),
    write() {
      const run = waiting;
      waiting = [];
      for (const fn of run) fn();
    },
  };
  return watch;
}

describe('AckBatcher with a write watch (lingering acks)', () => {
  it('keeps the acks of turns that wrote nothing until the connection writes something else', async () => {
    const { channel, frames } = fakeChannel();
    const watch = fakeWatch();
    const acks = new AckBatcher(channel, () => false, watch, 16, 1000);
    const [m1, m2] = [1, 2].map(message);
    [m1, m2].forEach((m) => acks.delivered(m));
    acks.ack(m1);
    await tick();
    expect(frames).toEqual([]); // lingering: no write of its own
    acks.ack(m2);
    await tick();
    watch.write(); // e.g. a deferred reply is published
    expect(frames).toEqual(['ack 2 multiple']);
  });

  it('sends them after the linger time when nothing else is written', async () => {
    const { channel, frames } = fakeChannel();
    const acks = new AckBatcher(channel, () => false, fakeWatch(), 16, 20);
    const m1 = message(1);
    acks.delivered(m1);
    acks.ack(m1);
    await tick();
    expect(frames).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(frames).toEqual(['ack 1']);
  });

  it('sends them with the write already scheduled in the same turn, at once', async () => {
    const { channel, frames } = fakeChannel();
    const watch = fakeWatch();
    watch.scheduled = true;
    const acks = new AckBatcher(channel, () => false, watch, 16, 1000);
    const m1 = message(1);
    acks.delivered(m1);
    acks.ack(m1);
    await tick();
    expect(frames).toEqual(['ack 1']);
  });

  it('sends them at once when lingerMax wait (they hold prefetch slots), and on flush()', async () => {
    const { channel, frames } = fakeChannel();
    const acks = new AckBatcher(channel, () => false, fakeWatch(), 2, 1000);
    const [m1, m2, m3] = [1, 2, 3].map(message);
    [m1, m2, m3].forEach((m) => acks.delivered(m));
    acks.ack(m1);
    await tick();
    expect(frames).toEqual([]);
    acks.ack(m2);
    await tick();
    expect(frames).toEqual(['ack 2 multiple']);
    acks.ack(m3);
    await tick();
    expect(frames).toEqual(['ack 2 multiple']);
    acks.flush(); // the transport stopping
    expect(frames).toEqual(['ack 2 multiple', 'ack 3']);
  });
});
