import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { startRouterHarness, type RouterHarness } from '../tools/support/router-harness';

/**
 * Token revocation (RFC 7009, actors/oauth/oauth-revoke.route.ts, docs/oauth.md) end to end over
 * HTTP: a revoked refresh token ends its grant (no refresh, and the access token is refused at
 * `/mcp`); a revoked access token is refused as a token revoked in `/api/bearer-tokens`; unknown
 * tokens are 200; client authentication and a missing token are refused.
 */

let h: RouterHarness;
beforeAll(async () => {
  h = await startRouterHarness();
});
afterAll(async () => {
  await h.stop();
});

const REDIRECT = 'http://127.0.0.1:9/callback';

async function register(): Promise<string> {
  const res = await h
    .http()
    .post('/oauth/register')
    .send({ redirect_uris: [REDIRECT], client_name: 'Revoker' });
  expect(res.status).toBe(201);
  return res.body.client_id as string;
}

/** Sign-in page, consent, code, token: a fresh grant of `email`'s account to `clientId`. */
async function grant(email: string, clientId: string) {
  const verifier = randomBytes(48).toString('base64url');
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 's',
  };
  const browser = request.agent(h.url);
  const consent = await browser
    .post('/oauth/authorize')
    .type('form')
    .send({ ...params, op: 'signin', email, password: 'correct horse battery' });
  const consentId = /name="consent" value="([^"]+)"/.exec(consent.text)![1]!;
  const approved = await browser
    .post('/oauth/authorize')
    .type('form')
    .send({ consent: consentId, op: 'approve' });
  const code = new URL(approved.headers.location as string).searchParams.get('code')!;
  const issued = await token({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
  });
  expect(issued.status).toBe(200);
  return issued.body as { access_token: string; refresh_token: string };
}

const token = (body: Record<string, string>) => h.http().post('/oauth/token').type('form').send(body);
const revoke = (body: Record<string, string>) => h.http().post('/oauth/revoke').type('form').send(body);
const mcpList = (accessToken: string) =>
  h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${accessToken}`)
    .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

describe('OAuth token revocation (RFC 7009)', () => {
  it('is advertised in the authorization server metadata', async () => {
    const as = await h.http().get('/.well-known/oauth-authorization-server');
    expect(as.body.revocation_endpoint).toBe(`${h.runtime.config.PUBLIC_BASE_URL}/oauth/revoke`);
  });

  it('a revoked refresh token ends the grant: no refresh, and its access token is refused at /mcp', async () => {
    const account = await h.account();
    const clientId = await register();
    const issued = await grant(account.email, clientId);
    expect((await mcpList(issued.access_token)).status).toBe(200);

    const res = await revoke({
      token: issued.refresh_token,
      token_type_hint: 'refresh_token',
      client_id: clientId,
    });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const refresh = await token({
      grant_type: 'refresh_token',
      refresh_token: issued.refresh_token,
      client_id: clientId,
    });
    expect(refresh.body.error).toBe('invalid_grant');
    expect((await mcpList(issued.access_token)).status).toBe(401);
    // The named token shows as revoked where the user manages tokens.
    const list = await h.http().get('/api/bearer-tokens').set('Authorization', `Bearer ${account.token}`);
    const named = list.body.tokens.filter((t: { name: string }) => t.name.startsWith('MCP: Revoker'));
    expect(named.map((t: { status: string }) => t.status)).toEqual(['revoked']);
    // Revoking again is still 200 (RFC 7009 §2.2).
    expect((await revoke({ token: issued.refresh_token, client_id: clientId })).status).toBe(200);
  });

  it('a revoked access token is refused at /mcp and its grant cannot refresh; the hint is only a hint', async () => {
    const account = await h.account();
    const clientId = await register();
    const issued = await grant(account.email, clientId);
    // A wrong hint: the server still finds the access token.
    const res = await h
      .http()
      .post('/oauth/revoke')
      .send({ token: issued.access_token, token_type_hint: 'refresh_token', client_id: clientId });
    expect(res.status).toBe(200);
    expect((await mcpList(issued.access_token)).status).toBe(401);
    const refresh = await token({
      grant_type: 'refresh_token',
      refresh_token: issued.refresh_token,
      client_id: clientId,
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('another client cannot revoke a grant it does not hold; unknown tokens are 200', async () => {
    const account = await h.account();
    const clientId = await register();
    const intruder = await register();
    const issued = await grant(account.email, clientId);
    expect((await revoke({ token: issued.access_token, client_id: intruder })).status).toBe(200);
    expect((await revoke({ token: issued.refresh_token, client_id: intruder })).status).toBe(200);
    expect((await mcpList(issued.access_token)).status).toBe(200);

    expect((await revoke({ token: 'no-such-token', client_id: clientId })).status).toBe(200);
    expect(
      (await revoke({ token: 'a.b.c', token_type_hint: 'access_token', client_id: clientId })).status,
    ).toBe(200);
    expect((await mcpList(issued.access_token)).status).toBe(200);
  });

  it('refuses bad client authentication (401) and a missing token (400)', async () => {
    const clientId = await register();
    const missingClient = await revoke({ token: 'x' });
    expect(missingClient.status).toBe(401);
    expect(missingClient.body).toMatchObject({ error: 'invalid_client', code: 'UNAUTHORIZED' });
    const unknownClient = await revoke({ token: 'x', client_id: 'oac_nobody' });
    expect(unknownClient.status).toBe(401);
    expect(unknownClient.body.error).toBe('invalid_client');
    const noToken = await revoke({ client_id: clientId });
    expect(noToken.status).toBe(400);
    expect(noToken.body).toMatchObject({ error: 'invalid_request', code: 'VALIDATION_ERROR' });
    expect(noToken.body.error_description).toBe('token is required');
  });
});
