import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { startRouterHarness, type RouterHarness } from '../tools/support/router-harness';

/**
 * The service as an OAuth 2.1 authorization server for MCP clients (actors/oauth, docs/oauth.md),
 * end to end over HTTP: registration, authorize with PKCE through the sign-in and consent pages,
 * the token endpoint, `/mcp` with the access token, refresh rotation, single use everywhere, and
 * the token as a named token the user sees and revokes.
 */

let h: RouterHarness;
beforeAll(async () => {
  h = await startRouterHarness();
});
afterAll(async () => {
  await h.stop();
});

const REDIRECT = 'http://127.0.0.1:9/callback';
const pkce = () => {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

async function register(): Promise<string> {
  const res = await h
    .http()
    .post('/oauth/register')
    .send({ redirect_uris: [REDIRECT], client_name: 'Test client' });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ token_endpoint_auth_method: 'none', redirect_uris: [REDIRECT] });
  return res.body.client_id as string;
}

const authorizeParams = (clientId: string, challenge: string, extra: Record<string, string> = {}) => ({
  response_type: 'code',
  client_id: clientId,
  redirect_uri: REDIRECT,
  code_challenge: challenge,
  code_challenge_method: 'S256',
  state: 'st-1',
  scope: 'mcp_connector',
  ...extra,
});

/** Signs in on the page, approves, and answers the code (a browser with its own cookie jar). */
async function authorize(email: string, clientId: string, challenge: string) {
  const browser = request.agent(h.url);
  const params = authorizeParams(clientId, challenge);
  const page = await browser.get('/oauth/authorize').query(params);
  expect(page.status).toBe(200);
  expect(page.text).toContain('Sign in');
  const consent = await browser
    .post('/oauth/authorize')
    .type('form')
    .send({ ...params, op: 'signin', email, password: 'correct horse battery' });
  expect(consent.status).toBe(200);
  const consentId = /name="consent" value="([^"]+)"/.exec(consent.text)![1]!;
  const approved = await browser
    .post('/oauth/authorize')
    .type('form')
    .send({ consent: consentId, op: 'approve' });
  expect(approved.status).toBe(302);
  const location = new URL(approved.headers.location as string);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  expect(location.searchParams.get('state')).toBe('st-1');
  expect(location.searchParams.get('iss')).toBe(h.runtime.config.PUBLIC_BASE_URL);
  return { code: location.searchParams.get('code')!, browser, consentId };
}

const token = (body: Record<string, string>) => h.http().post('/oauth/token').type('form').send(body);
const mcpList = (accessToken: string) =>
  h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${accessToken}`)
    .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

describe('OAuth for MCP clients', () => {
  it('publishes its metadata and is named by the protected resource', async () => {
    const base = h.runtime.config.PUBLIC_BASE_URL;
    const as = await h.http().get('/.well-known/oauth-authorization-server');
    expect(as.body).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
    });
    const pr = await h.http().get('/.well-known/oauth-protected-resource/mcp');
    expect(pr.body.authorization_servers).toEqual([base]);
  });

  it('register, authorize (sign in, consent), token, /mcp; the token is a named token; codes are single use', async () => {
    const account = await h.account();
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(account.email, clientId, challenge);

    const wrong = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: pkce().verifier,
    });
    expect(wrong.body.error).toBe('invalid_grant');
    // The failed try used the code up: PKCE mismatch or not, a code is good once.
    const again = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(again.body.error).toBe('invalid_grant');

    const second = await authorize(account.email, clientId, challenge);
    const issued = await token({
      grant_type: 'authorization_code',
      code: second.code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(issued.status).toBe(200);
    expect(issued.headers['cache-control']).toBe('no-store');
    expect(issued.body).toMatchObject({ token_type: 'Bearer', scope: 'mcp_connector' });
    expect((await mcpList(issued.body.access_token)).status).toBe(200);

    const tokens = await h.http().get('/api/bearer-tokens').set('Authorization', `Bearer ${account.token}`);
    const named = tokens.body.tokens.find((t: { name: string }) => t.name.startsWith('MCP: Test client'));
    expect(named).toMatchObject({ scopes: ['mcp_connector'], status: 'live' });

    // The consent was answered: approving it again does nothing.
    const replay = await second.browser
      .post('/oauth/authorize')
      .type('form')
      .send({ consent: second.consentId, op: 'approve' });
    expect(replay.status).toBe(400);
    // A replayed code revokes what it issued.
    const replayed = await token({
      grant_type: 'authorization_code',
      code: second.code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(replayed.body.error).toBe('invalid_grant');
    expect((await mcpList(issued.body.access_token)).status).toBe(401);
  });

  it('refresh rotates both tokens; a used refresh token revokes the grant; revoking in /api/bearer-tokens ends it', async () => {
    const account = await h.account();
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(account.email, clientId, challenge);
    const first = (
      await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
      })
    ).body;

    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    expect((await mcpList(first.access_token)).status).toBe(401);
    expect((await mcpList(refreshed.body.access_token)).status).toBe(200);

    const reuse = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: clientId,
    });
    expect(reuse.body.error).toBe('invalid_grant');
    expect((await mcpList(refreshed.body.access_token)).status).toBe(401);

    // Another grant, revoked by the user: its refresh token is dead too.
    const other = await authorize(account.email, clientId, challenge);
    const grant = (
      await token({
        grant_type: 'authorization_code',
        code: other.code,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
      })
    ).body;
    const auth = { Authorization: `Bearer ${account.token}` };
    const list = await h.http().get('/api/bearer-tokens').set(auth);
    const live = list.body.tokens.filter(
      (t: { status: string; name: string }) => t.status === 'live' && t.name.startsWith('MCP:'),
    );
    expect(live).toHaveLength(1);
    await h.http().delete('/api/bearer-tokens').set(auth).send({ id: live[0].id });
    const dead = await token({
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
      client_id: clientId,
    });
    expect(dead.body.error).toBe('invalid_grant');
  });

  it('refuses what it must: unknown redirect URIs (no redirect), no PKCE, plain PKCE, a foreign resource, denial', async () => {
    const clientId = await register();
    const { challenge } = pkce();
    const mismatch = await h
      .http()
      .get('/oauth/authorize')
      .query(authorizeParams(clientId, challenge, { redirect_uri: `${REDIRECT}/x` }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.headers.location).toBeUndefined();
    const unknown = await h.http().get('/oauth/authorize').query(authorizeParams('oac_nope', challenge));
    expect(unknown.status).toBe(400);

    const errorOf = async (extra: Record<string, string>) => {
      const res = await h
        .http()
        .get('/oauth/authorize')
        .query(authorizeParams(clientId, challenge, extra));
      expect(res.status).toBe(302);
      return new URL(res.headers.location as string).searchParams.get('error');
    };
    expect(await errorOf({ code_challenge_method: 'plain' })).toBe('invalid_request');
    expect(await errorOf({ code_challenge: '' })).toBe('invalid_request');
    expect(await errorOf({ resource: 'https://elsewhere.example/mcp' })).toBe('invalid_target');
    expect(await errorOf({ response_type: 'token' })).toBe('unsupported_response_type');

    const bad = await h
      .http()
      .post('/oauth/register')
      .send({ redirect_uris: ['http://evil.example/cb'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_redirect_uri', code: 'VALIDATION_ERROR' });
    const grantType = await token({ grant_type: 'password', username: 'a', password: 'b' });
    expect(grantType.body.error).toBe('unsupported_grant_type');

    const account = await h.account();
    const browser = request.agent(h.url);
    const params = authorizeParams(clientId, challenge);
    const consent = await browser
      .post('/oauth/authorize')
      .type('form')
      .send({ ...params, op: 'signin', email: account.email, password: 'correct horse battery' });
    const consentId = /name="consent" value="([^"]+)"/.exec(consent.text)![1]!;
    // Another browser cannot answer this consent.
    const stranger = await request(h.url)
      .post('/oauth/authorize')
      .type('form')
      .send({ consent: consentId, op: 'approve' });
    expect(stranger.status).toBe(400);
    const denied = await browser
      .post('/oauth/authorize')
      .type('form')
      .send({ consent: consentId, op: 'deny' });
    expect(new URL(denied.headers.location as string).searchParams.get('error')).toBe('access_denied');
    const wrongPassword = await browser
      .post('/oauth/authorize')
      .type('form')
      .send({ ...params, op: 'signin', email: account.email, password: 'wrong horse battery' });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.text).toContain('Wrong email or password');
  });
});
