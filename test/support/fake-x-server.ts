import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for X (the project's own, for tests and for trying the social connector; see
 * docs/social.md, "Running against the fake X server"). It speaks the parts of X's OAuth 2.0 and
 * API v2 the connector uses, and checks what X checks:
 *
 * - `GET /i/oauth2/authorize`: validates client, redirect URI, scopes, `state` and a PKCE S256
 *   challenge, then (the user "approves" at once) redirects to the redirect URI with a code.
 * - `POST /2/oauth2/token`: `authorization_code` (single-use code, same redirect URI, the PKCE
 *   verifier must hash to the challenge) and `refresh_token` (rotating: an old refresh token is
 *   refused); client authentication by HTTP Basic when a secret is configured, else `client_id`.
 * - `POST /2/oauth2/revoke`, `GET /2/users/me`, `POST /2/tweets` (duplicate text refused with 403).
 * - Failure modes, switched from tests (`failNext`) or over HTTP (`POST /__fake/fail`): the next
 *   n posts answer 429 with `x-rate-limit-*` headers, or a 5xx.
 * - `GET /__fake/tweets` lists what was posted; `POST /__fake/expire-tokens` ages every access token.
 */

export interface FakeXOptions {
  clientId: string;
  clientSecret?: string;
  username?: string;
  /** Lifetime of access tokens, s (X: 7200). */
  accessTtlSec?: number;
  port?: number;
  host?: string;
}

export interface FakeTweet {
  id: string;
  text: string;
  userId: string;
  inReplyTo?: string;
  at: string;
}

export interface FailureMode {
  status: number;
  /** How many of the next posts fail this way. */
  times: number;
  /** For 429: seconds until `x-rate-limit-reset`. */
  resetInSec?: number;
}

interface CodeGrant {
  challenge: string;
  redirectUri: string;
  scope: string;
  used: boolean;
}

const SCOPES_NEEDED = ['tweet.read', 'tweet.write', 'users.read', 'offline.access'];
const USER_ID = '1790000000000000001';

export class FakeXServer {
  readonly tweets: FakeTweet[] = [];
  /** Counters tests assert on. */
  readonly stats = { authorizations: 0, codeExchanges: 0, refreshes: 0, revocations: 0, postAttempts: 0 };
  private readonly codes = new Map<string, CodeGrant>();
  private readonly access = new Map<string, number>();
  private readonly refresh = new Set<string>();
  private failures: FailureMode[] = [];
  private deny = false;
  /** Every access and refresh token ever issued (tests look for them where they must not be). */
  readonly issued: string[] = [];
  private server?: http.Server;
  private nextId = 1_800_000_000_000_000_000n;
  baseUrl = '';

  constructor(private readonly options: FakeXOptions) {}

  async start(): Promise<{ apiBaseUrl: string; authBaseUrl: string }> {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) =>
        send(res, 500, { title: 'fake error', detail: String(err) }),
      );
    });
    await new Promise<void>((resolve) =>
      this.server!.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', resolve),
    );
    const { port } = this.server.address() as AddressInfo;
    // A host name, not an IP literal: the service's egress refuses IP-address hosts.
    this.baseUrl = `http://localhost:${port}`;
    return { apiBaseUrl: this.baseUrl, authBaseUrl: this.baseUrl };
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The next `times` posts fail with `status` (429 carries the rate-limit headers). */
  failNext(mode: FailureMode): void {
    this.failures.push({ ...mode });
  }

  /** The next authorization is declined by the user: X redirects back with `error=access_denied`. */
  denyNext(): void {
    this.deny = true;
  }

  /** Back to normal: no failure mode left. */
  clearFailures(): void {
    this.failures = [];
  }

  /** Every access token expires now (the connector must refresh before its next call). */
  expireAccessTokens(): void {
    for (const token of this.access.keys()) this.access.set(token, Date.now() - 1000);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case 'GET /i/oauth2/authorize':
        return this.authorize(url, res);
      case 'POST /2/oauth2/token':
        return this.token(req, await readBody(req), res);
      case 'POST /2/oauth2/revoke':
        return this.revoke(req, await readBody(req), res);
      case 'GET /2/users/me':
        if (!this.bearerOk(req))
          return send(res, 401, { title: 'Unauthorized', status: 401, detail: 'Unauthorized' });
        return send(res, 200, { data: { id: USER_ID, name: 'Fake X User', username: this.username } });
      case 'POST /2/tweets':
        return this.post(req, await readBody(req), res);
      case 'GET /__fake/tweets':
        return send(res, 200, { tweets: this.tweets, stats: this.stats });
      case 'POST /__fake/fail': {
        const body = JSON.parse((await readBody(req)) || '{}') as FailureMode;
        this.failNext({
          status: Number(body.status),
          times: Number(body.times ?? 1),
          resetInSec: body.resetInSec,
        });
        return send(res, 200, { failures: this.failures });
      }
      case 'POST /__fake/expire-tokens':
        this.expireAccessTokens();
        return send(res, 200, { expired: this.access.size });
      default:
        return send(res, 404, { title: 'Not Found', status: 404 });
    }
  }

  private get username(): string {
    return this.options.username ?? 'fake_x_user';
  }

  private authorize(url: URL, res: http.ServerResponse): void {
    const q = Object.fromEntries(url.searchParams);
    const problems: string[] = [];
    if (q.response_type !== 'code') problems.push('response_type must be code');
    if (q.client_id !== this.options.clientId) problems.push('unknown client_id');
    if (!q.redirect_uri) problems.push('redirect_uri missing');
    if (!q.state) problems.push('state missing');
    if (q.code_challenge_method !== 'S256') problems.push('code_challenge_method must be S256');
    if (!/^[A-Za-z0-9_-]{43}$/.test(q.code_challenge ?? ''))
      problems.push('code_challenge must be a S256 hash');
    const scopes = (q.scope ?? '').split(' ');
    for (const s of SCOPES_NEEDED) if (!scopes.includes(s)) problems.push(`scope ${s} missing`);
    if (problems.length > 0)
      return send(res, 400, { error: 'invalid_request', error_description: problems.join('; ') });
    if (this.deny) {
      this.deny = false;
      const declined = new URL(q.redirect_uri!);
      declined.searchParams.set('state', q.state!);
      declined.searchParams.set('error', 'access_denied');
      res.writeHead(302, { location: declined.toString() }).end();
      return;
    }
    this.stats.authorizations++;
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, {
      challenge: q.code_challenge!,
      redirectUri: q.redirect_uri!,
      scope: q.scope!,
      used: false,
    });
    const back = new URL(q.redirect_uri!);
    back.searchParams.set('state', q.state!);
    back.searchParams.set('code', code);
    res.writeHead(302, { location: back.toString() }).end();
  }

  private clientOk(req: http.IncomingMessage, form: URLSearchParams): boolean {
    if (this.options.clientSecret) {
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const [id, secret] = Buffer.from(basic ?? '', 'base64')
        .toString()
        .split(':')
        .map(decodeURIComponent);
      return id === this.options.clientId && secret === this.options.clientSecret;
    }
    return form.get('client_id') === this.options.clientId;
  }

  private token(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
    const form = new URLSearchParams(raw);
    if (!this.clientOk(req, form))
      return send(res, 401, {
        error: 'unauthorized_client',
        error_description: 'client authentication failed',
      });
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      if (!code || code.used)
        return send(res, 400, { error: 'invalid_grant', error_description: 'unknown or used code' });
      code.used = true;
      if (form.get('redirect_uri') !== code.redirectUri) {
        return send(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri does not match' });
      }
      const verifier = form.get('code_verifier') ?? '';
      const hashed = createHash('sha256').update(verifier).digest('base64url');
      if (verifier.length < 43 || hashed !== code.challenge) {
        return send(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      }
      this.stats.codeExchanges++;
      return send(res, 200, this.issue(code.scope));
    }
    if (grant === 'refresh_token') {
      const token = form.get('refresh_token') ?? '';
      if (!this.refresh.delete(token))
        return send(res, 400, { error: 'invalid_grant', error_description: 'invalid refresh token' });
      this.stats.refreshes++;
      return send(res, 200, this.issue(SCOPES_NEEDED.join(' ')));
    }
    send(res, 400, { error: 'unsupported_grant_type' });
  }

  private issue(scope: string) {
    const ttl = this.options.accessTtlSec ?? 7200;
    const access = randomBytes(24).toString('base64url');
    const refresh = randomBytes(24).toString('base64url');
    this.access.set(access, Date.now() + ttl * 1000);
    this.refresh.add(refresh);
    this.issued.push(access, refresh);
    return { token_type: 'bearer', expires_in: ttl, access_token: access, refresh_token: refresh, scope };
  }

  private revoke(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
    const form = new URLSearchParams(raw);
    if (!this.clientOk(req, form)) return send(res, 401, { error: 'unauthorized_client' });
    const token = form.get('token') ?? '';
    if (this.access.delete(token) || this.refresh.delete(token)) this.stats.revocations++;
    send(res, 200, { revoked: true });
  }

  private bearerOk(req: http.IncomingMessage): boolean {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const until = this.access.get(token);
    return until !== undefined && until > Date.now();
  }

  private post(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
    this.stats.postAttempts++;
    if (!this.bearerOk(req))
      return send(res, 401, { title: 'Unauthorized', status: 401, detail: 'Unauthorized' });
    const failure = this.failures[0];
    if (failure) {
      if (--failure.times <= 0) this.failures.shift();
      if (failure.status === 429) {
        const reset = Math.floor(Date.now() / 1000) + (failure.resetInSec ?? 60);
        return send(
          res,
          429,
          { title: 'Too Many Requests', status: 429, detail: 'Too Many Requests' },
          { 'x-rate-limit-limit': '17', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(reset) },
        );
      }
      return send(res, failure.status, {
        title: 'Service Unavailable',
        status: failure.status,
        detail: 'upstream trouble',
      });
    }
    let body: { text?: unknown; reply?: { in_reply_to_tweet_id?: string } };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      return send(res, 400, { title: 'Invalid Request', status: 400, detail: 'body is not JSON' });
    }
    if (typeof body.text !== 'string' || body.text.length === 0) {
      return send(res, 400, { title: 'Invalid Request', status: 400, detail: 'text is required' });
    }
    if (this.tweets.some((t) => t.text === body.text)) {
      return send(res, 403, {
        title: 'Forbidden',
        status: 403,
        detail: 'You are not allowed to create a Tweet with duplicate content.',
      });
    }
    const tweet: FakeTweet = {
      id: String(this.nextId++),
      text: body.text,
      userId: USER_ID,
      ...(body.reply?.in_reply_to_tweet_id ? { inReplyTo: body.reply.in_reply_to_tweet_id } : {}),
      at: new Date().toISOString(),
    };
    this.tweets.push(tweet);
    send(res, 201, { data: { id: tweet.id, text: tweet.text } });
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** `node scripts/fake-x-server.js`: FAKE_X_PORT (default 4010), FAKE_X_CLIENT_ID, FAKE_X_CLIENT_SECRET. */
export async function main(): Promise<void> {
  const fake = new FakeXServer({
    clientId: process.env.FAKE_X_CLIENT_ID ?? 'fake-client',
    clientSecret: process.env.FAKE_X_CLIENT_SECRET || undefined,
    username: process.env.FAKE_X_USERNAME,
    port: Number(process.env.FAKE_X_PORT ?? 4010),
  });
  const urls = await fake.start();
  process.stdout.write(
    `fake X server on ${urls.apiBaseUrl} (client id ${process.env.FAKE_X_CLIENT_ID ?? 'fake-client'})\n`,
  );
}
