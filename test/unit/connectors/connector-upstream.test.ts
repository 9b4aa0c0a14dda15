import {
  MAX_UPSTREAM_SUBSCRIPTIONS,
  Rediscovery,
  UpstreamSubscriptions,
} from '../../../actors/connectors/connector-upstream';
import type { ConnectorSpec } from '../../../actors/connectors/mcp-session';

/** The bookkeeping of upstream notifications (actors/connectors/connector-upstream.ts). */

const spec = (id: string): ConnectorSpec => ({
  id,
  accountId: 'acc',
  slug: id,
  transport: 'http',
  args: [],
  env: {},
  headers: {},
});

describe('Rediscovery', () => {
  it('runs once more after a burst that came while it ran, not once per notification', async () => {
    let release!: () => void;
    const runs: string[] = [];
    const rediscovery = new Rediscovery(async (s) => {
      runs.push(s.id);
      if (runs.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = rediscovery.request(spec('a'));
    await rediscovery.request(spec('a'));
    await rediscovery.request(spec('a'));
    await rediscovery.request(spec('a'));
    // Another connector is not held up by the first.
    await rediscovery.request(spec('b'));
    release();
    await first;
    expect(runs).toEqual(['a', 'b', 'a']);
    // Idle again: the next notification runs at once.
    await rediscovery.request(spec('a'));
    expect(runs).toEqual(['a', 'b', 'a', 'a']);
  });

  it('a failed run does not stop later ones', async () => {
    let calls = 0;
    const rediscovery = new Rediscovery(async () => {
      calls++;
      throw new Error('down');
    });
    await expect(rediscovery.request(spec('a'))).rejects.toThrow('down');
    await expect(rediscovery.request(spec('a'))).rejects.toThrow('down');
    expect(calls).toBe(2);
  });
});

describe('UpstreamSubscriptions', () => {
  it('keeps URIs per connector, bounded, until removed or the connector is dropped', () => {
    const subs = new UpstreamSubscriptions();
    expect(subs.has('c1')).toBe(false);
    subs.add('c1', 'memo://a');
    subs.add('c1', 'memo://a');
    subs.add('c2', 'memo://b');
    expect(subs.has('c1')).toBe(true);
    subs.remove('c1', 'memo://a');
    expect(subs.has('c1')).toBe(false);
    expect(subs.has('c2')).toBe(true);
    subs.drop('c2');
    expect(subs.has('c2')).toBe(false);
    for (let i = 0; i < MAX_UPSTREAM_SUBSCRIPTIONS + 5; i++) subs.add('c3', `memo://${i}`);
    // Past the bound new URIs are not kept: removing the first bound-many empties the set.
    for (let i = 0; i < MAX_UPSTREAM_SUBSCRIPTIONS; i++) subs.remove('c3', `memo://${i}`);
    expect(subs.has('c3')).toBe(false);
  });
});
