import { ReplyHold } from '../../../../src/transport/amqp/amqp-reply-hold';

function sink() {
  const sent: Array<[string, string]> = [];
  return { sent, send: (queue: string, json: string) => sent.push([queue, json]) };
}

describe('ReplyHold', () => {
  it('releases what it keeps once, oldest first, across queues', () => {
    const hold = new ReplyHold(1000, 60_000, () => undefined);
    hold.hold('q.a', '"1"', undefined, 0);
    hold.hold('q.b', '"2"', undefined, 0);
    hold.holdAll('q.a', ['{"deadline":500}', '"4"'], 0);
    expect(hold.size).toBe(4);
    const { sent, send } = sink();
    expect(hold.release(send, 10)).toEqual({ sent: 4, expired: 0 });
    expect(sent).toEqual([
      ['q.a', '"1"'],
      ['q.b', '"2"'],
      ['q.a', '{"deadline":500}'],
      ['q.a', '"4"'],
    ]);
    expect(hold.size).toBe(0);
    expect(hold.release(send, 10)).toEqual({ sent: 0, expired: 0 });
  });

  it('drops a reply whose deadline passed, and any reply kept longer than its limit', () => {
    const hold = new ReplyHold(1000, 1000, () => undefined);
    hold.hold('q', '"past deadline"', 100, 0);
    hold.holdAll('q', ['{"deadline":100,"id":"read back"}'], 0);
    hold.hold('q', '"no deadline"', undefined, 0);
    hold.hold('q', '"far deadline"', 10_000, 0);
    hold.hold('q', '"recent"', undefined, 900);
    const { sent, send } = sink();
    expect(hold.release(send, 1500)).toEqual({ sent: 1, expired: 4 });
    expect(sent).toEqual([['q', '"recent"']]);
  });

  it('drops the oldest replies beyond its memory limit, and says how many', () => {
    const dropped: number[] = [];
    const hold = new ReplyHold(10, 60_000, (n) => dropped.push(n));
    hold.hold('q', '"aaa"', undefined, 0); // 5 bytes
    hold.hold('q', '"bbb"', undefined, 0); // 10
    expect(dropped).toEqual([]);
    hold.hold('q', '"ccccccc"', undefined, 0); // 19: the two oldest go
    expect(dropped).toEqual([2]);
    const { sent, send } = sink();
    hold.release(send, 0);
    expect(sent).toEqual([['q', '"ccccccc"']]);
  });
});
