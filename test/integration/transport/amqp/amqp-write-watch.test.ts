import * as amqp from 'amqplib';
import { WriteWatch } from '../../../../src/transport/amqp/amqp-write-watch';
import { describeWithService } from '../../../support/services';

/**
 * The write watch reaches into amqplib's multiplexer; this pins the shape it relies on, so an
 * amqplib upgrade that changes it fails here instead of silently losing the lingering acks.
 */
describeWithService('amqp', 'WriteWatch on a real amqplib connection', (url) => {
  it('installs, and tells when a frame is about to be written', async () => {
    const model = await amqp.connect(url, { clientProperties: { connection_name: 'test-write-watch' } });
    model.on('error', () => undefined);
    try {
      const watch = WriteWatch.install(model);
      expect(watch).toBeDefined();
      expect(WriteWatch.install(model)).toBe(watch); // once per connection
      expect(WriteWatch.of(model)).toBe(watch);
      const channel = await model.createChannel();
      await new Promise((resolve) => setImmediate(resolve));
      expect(watch!.scheduled).toBe(false);
      const calls: boolean[] = [];
      watch!.onNextWrite(() => calls.push(watch!.scheduled));
      channel.publish('', 'test-write-watch-nowhere', Buffer.from('x'));
      await new Promise((resolve) => process.nextTick(resolve));
      await new Promise((resolve) => process.nextTick(resolve));
      expect(calls).toEqual([true]); // called once, with the writer scheduled
      await new Promise((resolve) => setImmediate(resolve));
      expect(watch!.scheduled).toBe(false);
      channel.publish('', 'test-write-watch-nowhere', Buffer.from('y'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(calls).toHaveLength(1); // not called again
      await channel.close();
    } finally {
      await model.close().catch(() => undefined);
    }
  });
});
