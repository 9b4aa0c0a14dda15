import jwt from 'jsonwebtoken';
import { Redis } from 'ioredis';
import { Collection } from 'mongodb';
import { namedTokensCollection } from '../../../actors/identity/named-tokens.collection';
import { REGISTER_RATE_LIMIT } from '../../../actors/identity/agents.route';
import { createRateLimiter } from '../../../src/store/cache';
import { describeWithService } from '../../support/services';
import { bearer, eventually, startIdentityHarness, type IdentityHarness } from './support/identity-harness';

/**
 * The same paths with Redis as the cache (revocations, named-token records, the lastUsedAt
 * throttle and the /register limit live there), as in a multi-process deployment.
 */
describeWithService('redis', 'agents and named tokens with Redis as the cache', (redisUrl) => {
  let h: IdentityHarness;
  /** Keys this suite made in the shared Redis, deleted afterwards. */
  const jtis: string[] = [];
  const tokenIds: string[] = [];

  beforeAll(async () => {
    h = await startIdentityHarness({ REDIS_URL: redisUrl });
    expect(h.runtime.cache.kind).toBe('redis');
  });
  afterAll(async () => {
    await h?.stop();
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const keys = [
      ...jtis.map((j) => `auth:revoked:${j}`),
      ...tokenIds.flatMap((id) => [`named-token:record:${id}`, `named-token:used:${id}`]),
    ];
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  const remember = (value: string, id?: string) => {
    jtis.push((jwt.decode(value) as jwt.JwtPayload).jti as string);
    if (id) tokenIds.push(id);
    return value;
  };

  it('registers, answers /agent/me, and limits /register per address', async () => {
    const limiter = createRateLimiter(h.runtime.cache, {
      keyPrefix: `rl:${REGISTER_RATE_LIMIT.name}`,
      points: REGISTER_RATE_LIMIT.points,
      durationSec: REGISTER_RATE_LIMIT.durationSec,
    });
    await limiter.reset(':127.0.0.1');
    const name = `Redis bot ${process.pid} ${Date.now()}`;
    const reg = await h.http().post('/register').send({ name });
    expect(reg.status).toBe(201);
    remember(reg.body.token);
    const me = await h.http().get('/agent/me').set('Authorization', bearer(reg.body.token));
    expect(me.body).toMatchObject({ name, status: 'active', totalCalls: 0 });
    for (let i = 1; i < REGISTER_RATE_LIMIT.points; i++) await h.http().post('/register').send({});
    const limited = await h
      .http()
      .post('/register')
      .send({ name: `${name} 2` });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await limiter.reset(':127.0.0.1');
  });

  it('rescope, rotate and revoke take effect at once; lastUsedAt is written once for 20 requests', async () => {
    const { token } = await h.account();
    const auth = bearer(token);
    const created = await h
      .http()
      .post('/api/bearer-tokens')
      .set('Authorization', auth)
      .send({ name: 'r', scopes: ['workflow'] });
    const id = created.body.token.id as string;
    const first = remember(created.body.bearerToken, id);
    const updates = jest.spyOn(Collection.prototype, 'updateOne');
    try {
      expect((await h.http().get('/api/agents').set('Authorization', bearer(first))).status).toBe(403);
      await h
        .http()
        .patch('/api/bearer-tokens')
        .set('Authorization', auth)
        .send({ id, scopes: ['api'] });
      for (let i = 0; i < 20; i++)
        expect((await h.http().get('/api/agents').set('Authorization', bearer(first))).status).toBe(200);
      await eventually(
        async () => (await h.runtime.documents.repository(namedTokensCollection).findById(id))!.lastUsedAt,
      );
      expect(
        updates.mock.contexts.filter((c) => (c as Collection).collectionName === 'named_tokens'),
      ).toHaveLength(1);
    } finally {
      updates.mockRestore();
    }

    const rotated = await h
      .http()
      .patch('/api/bearer-tokens')
      .set('Authorization', auth)
      .send({ id, action: 'rotate' });
    const second = remember(rotated.body.bearerToken);
    expect((await h.http().get('/api/agents').set('Authorization', bearer(first))).status).toBe(401);
    expect((await h.http().get('/api/agents').set('Authorization', bearer(second))).status).toBe(200);

    await h.http().delete('/api/bearer-tokens').set('Authorization', auth).send({ id });
    expect((await h.http().get('/api/agents').set('Authorization', bearer(second))).status).toBe(401);
  });
});
