import { randomBytes } from 'node:crypto';
import type { WorkspaceMemberDocument } from '../../../schemas/documents/workspace-member';
import { WorkspaceMembership } from '../../../actors/workspaces/workspace-membership';
import { RedisCache } from '../../../src/store/cache';
import { sleep, waitFor } from '../../support/async';
import { describeWithService } from '../../support/services';
import { startTcpProxyTo, type TcpProxy } from '../../support/tcp-proxy';
import { fakeEpochs, sharedWorkspace, memberRowOfB, fakeMembershipRepos } from './support/membership-fakes';

/**
 * Several processes sharing one Redis (docs/workspaces.md, "Cache"), as `WorkspaceMembership`s on
 * their own Redis clients: P1 and P3 reach Redis through a TCP proxy the test cuts, P2 directly
 * (the worst case: it sees no failure at all). A member removed by P1 during the outage must not
 * come back through the list Redis kept from before it, in any process, once the epoch bound
 * (1 s) has passed; and P1 reads through the cache again once Redis is back.
 */
describeWithService('redis', 'membership across processes with Redis cut for some', (redisUrl) => {
  const ws = sharedWorkspace();
  const memberB = memberRowOfB(ws);
  let rows: WorkspaceMemberDocument[] = [memberB];
  let loads = 0;
  const { workspaces, members } = fakeMembershipRepos(
    ws,
    () => rows,
    () => {
      loads++;
    },
  );

  let proxy: TcpProxy;
  const caches: RedisCache[] = [];
  const B = { accountId: 'acc_b' };

  beforeAll(async () => {
    proxy = await startTcpProxyTo(redisUrl, 6379);
  });
  afterAll(async () => {
    await Promise.all(caches.map((c) => c.close()));
    await proxy?.close();
  });

  it('a removal during the outage holds in every process once Redis is back', async () => {
    const prefix = `test:wsm-processes:${randomBytes(4).toString('hex')}:`;
    const epochs = fakeEpochs();
    const open = async (url: string) => {
      const cache = await RedisCache.connect(url, { maxReconnectDelayMs: 100 });
      caches.push(cache);
      // One round trip first: the membership's cache calls are bounded (250 ms), and a first call
      // on a loaded machine may take longer than that and fall back to the documents.
      await cache.get(`${prefix}warm-up`);
      return new WorkspaceMembership(workspaces, members, epochs.repo, cache.namespace(prefix));
    };
    const p1 = await open(proxy.url(redisUrl));
    const p2 = await open(redisUrl);
    const p3 = await open(proxy.url(redisUrl));
    for (const p of [p1, p2, p3]) expect(await p.workspaceIdsOf(B)).toEqual([ws._id]);
    expect(loads).toBe(1); // one load, then the list cached in Redis

    await proxy.cut();
    const started = Date.now();
    expect(await p1.workspaceIdsOf(B)).toEqual([ws._id]); // from the documents
    rows = [];
    await p1.invalidate(memberB.memberKey); // Redis unreachable: the epoch is raised instead
    expect(await p1.workspaceIdsOf(B)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1_000);

    await sleep(1_100); // an outage longer than the epoch bound

    await proxy.restore();
    await waitFor(
      async () => (await caches[2]!.status()).state === 'up' && (await caches[0]!.status()).state === 'up',
      'redis back for P1 and P3',
      10_000,
      20,
    );
    // Redis still holds the list from before the outage; P3 made no call during it, but its epoch
    // is older than the bound, so it reads it again and refuses that list.
    expect(await p3.workspaceIdsOf(B)).toEqual([]);
    // P2 never saw Redis fail: the same bound applies.
    expect(await p2.workspaceIdsOf(B)).toEqual([]);
    // P1 reads through the cache again (after its pause following a failure): no more loads.
    await sleep(1_000);
    expect(await p1.workspaceIdsOf(B)).toEqual([]);
    const settled = loads;
    for (const p of [p1, p2, p3]) expect(await p.workspaceIdsOf(B)).toEqual([]);
    expect(loads).toBe(settled);
  });
});
