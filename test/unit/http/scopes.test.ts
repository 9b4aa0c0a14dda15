import express from 'express';
import request from 'supertest';
import type { NamedTokenRecord } from '../../../actors/identity/named-token-directory';
import type { Principal } from '../../../schemas/auth';
import { errorMiddleware } from '../../../src/http/error.middleware';
import { requestContext } from '../../../src/http/request-context.middleware';
import { ROUTE_SCOPE_RULES, scopesForPath, withScopes } from '../../../src/http/scopes';
import { silentLogger } from '../../../src/logging/logger';

describe('scopesForPath', () => {
  it.each([
    ['/api/bearer-tokens', ['api']],
    ['/api/agents', ['external_agent', 'api']],
    ['/api/agents/', ['external_agent', 'api']],
    ['/agent/me', ['external_agent']],
    ['/mcp', ['mcp_connector']],
    ['/api/connectors', ['mcp_connector', 'api']],
    ['/api/apps/todo/open', ['app', 'api']],
    ['/api/files', ['workspace', 'project', 'api']],
    ['/api/executions/exe_1/actions', ['workflow', 'api']],
    ['/api/appsx', ['api']],
    ['/api', ['api']],
    ['/mcpx', []],
    ['/somewhere-new', []],
  ])('%s → %j', (path, scopes) => {
    expect(scopesForPath(path)).toEqual(scopes);
  });

  it('the longest prefix wins', () => {
    const rules = [...ROUTE_SCOPE_RULES, { prefix: '/api/apps/special', scopes: ['workflow'] as const }];
    expect(scopesForPath('/api/apps/special/x', rules)).toEqual(['workflow', 'api']);
  });
});

describe('withScopes', () => {
  const records = new Map<string, NamedTokenRecord>();
  const told: unknown[] = [];
  let claims = 0;

  function app(principal: Principal | undefined, onMiss?: 'deny' | 'anonymous') {
    const a = express();
    a.use(requestContext(silentLogger));
    const authenticate: express.RequestHandler = (_req, res, next) => {
      if (principal) res.locals.auth = principal;
      next();
    };
    const gate = withScopes(authenticate, {
      directory: {
        lookup: async (id) => records.get(id) ?? null,
        claimLastUsedWrite: async () => claims++ === 0,
      },
      system: { tell: async (...args: unknown[]) => void told.push(args) },
      logger: silentLogger,
      onMiss,
    });
    a.get('/api/bearer-tokens', gate, (_req, res) => res.json({ auth: res.locals.auth ?? null }));
    a.use(errorMiddleware());
    return a;
  }

  const named = (scopes?: Principal['scopes']): Principal => ({
    subjectType: 'account',
    accountId: 'acc_1',
    via: 'bearer',
    tokenId: 'ntk_1',
    ...(scopes ? { scopes } : {}),
  });

  beforeEach(() => {
    records.set('ntk_1', { accountId: 'acc_1', status: 'live', scopes: ['api'], jti: 'j1' });
    told.length = 0;
    claims = 0;
  });

  it('lets unscoped callers through untouched', async () => {
    const p: Principal = { subjectType: 'account', accountId: 'acc_1', via: 'session' };
    expect((await request(app(p)).get('/api/bearer-tokens')).body).toEqual({ auth: p });
    expect((await request(app(undefined)).get('/api/bearer-tokens')).body).toEqual({ auth: null });
  });

  it("uses the record's scopes, not the token's, and notes the use once", async () => {
    const res = await request(app(named(['workflow']))).get('/api/bearer-tokens');
    expect(res.status).toBe(200);
    expect(res.body.auth.scopes).toEqual(['api']);
    await request(app(named(['workflow']))).get('/api/bearer-tokens');
    await new Promise((r) => setImmediate(r));
    expect(told).toEqual([
      ['named-tokens:acc_1', 'named-tokens.touch', { id: 'ntk_1', at: expect.any(Number) }],
    ]);
  });

  it('drops scopes for an unrestricted record', async () => {
    records.set('ntk_1', { accountId: 'acc_1', status: 'live', scopes: [], jti: 'j1' });
    const res = await request(app(named(['workflow']))).get('/api/bearer-tokens');
    expect(res.body.auth).toEqual({
      subjectType: 'account',
      accountId: 'acc_1',
      via: 'bearer',
      tokenId: 'ntk_1',
    });
  });

  it('401 for an unknown, revoked, foreign or rotated-away token', async () => {
    records.delete('ntk_1');
    expect((await request(app(named())).get('/api/bearer-tokens')).status).toBe(401);
    records.set('ntk_1', { accountId: 'acc_1', status: 'revoked', scopes: [], jti: 'j1' });
    expect((await request(app(named())).get('/api/bearer-tokens')).status).toBe(401);
    records.set('ntk_1', { accountId: 'acc_2', status: 'live', scopes: [], jti: 'j1' });
    expect((await request(app(named())).get('/api/bearer-tokens')).status).toBe(401);
    records.set('ntk_1', { accountId: 'acc_1', status: 'live', scopes: [], jti: 'j2' });
    const payload = Buffer.from(JSON.stringify({ tid: 'ntk_1', jti: 'j1' })).toString('base64url');
    const res = await request(app(named()))
      .get('/api/bearer-tokens')
      .set('Authorization', `Bearer h.${payload}.s`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Bearer token revoked', code: 'UNAUTHORIZED' });
  });

  it('403 naming the scope, or anonymous for optional routes', async () => {
    records.set('ntk_1', { accountId: 'acc_1', status: 'live', scopes: ['workflow'], jti: 'j1' });
    const denied = await request(app(named())).get('/api/bearer-tokens');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      code: 'PERMISSION_DENIED',
      requiredScopes: ['api'],
      tokenScopes: ['workflow'],
    });
    expect(denied.body.error).toContain('"api"');
    expect((await request(app(named(), 'anonymous')).get('/api/bearer-tokens')).body).toEqual({ auth: null });
  });
});
