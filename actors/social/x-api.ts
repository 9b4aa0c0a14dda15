import { AppError, errors, isAppError } from '../../schemas/errors';
import type { NetHttpResult } from '../../schemas/tools/net-http';
import type { HttpEgress } from '../tools/net/http-egress';

/** Scopes asked at connect (posting needs tweet.write; offline.access gives a refresh token). */
export const X_SCOPES = 'tweet.read tweet.write users.read offline.access';

/** Where X lives and who this service is there (configuration). */
export interface XSettings {
  apiBaseUrl: string;
  authBaseUrl: string;
  clientId?: string;
  clientSecret?: string;
}

export interface XTokens {
  accessToken: string;
  refreshToken?: string;
  expiresAt: Date;
  scope: string;
}

/** How an X call failed, for the publisher's retry decision. */
export type XFailureKind = 'rate_limited' | 'transient' | 'unauthorized' | 'rejected';

/** A failed call to X: `kind` decides retry; `resetAt` from `x-rate-limit-reset` on a 429. */
export class XApiError extends Error {
  constructor(
    readonly kind: XFailureKind,
    message: string,
    readonly status?: number,
    readonly resetAt?: Date,
  ) {
    super(message);
    this.name = 'XApiError';
  }
}

const CALL_TIMEOUT_MS = 15_000;

/**
 * X's OAuth 2.0 and API v2 endpoints used by the connector, called through the service's HTTP
 * egress (actors/tools/net: the same SSRF guard as the `net_*` tools; loopback only under
 * ALLOW_LOOPBACK_HTTP, for the fake X server of the tests). No redirect is followed: X answers
 * these calls directly.
 */
export class XApi {
  constructor(
    private readonly egress: HttpEgress,
    private readonly settings: XSettings,
  ) {}

  get configured(): boolean {
    return !!this.settings.clientId;
  }

  private clientId(): string {
    if (!this.settings.clientId) {
      throw errors.unavailable('The X connector is not configured (X_CLIENT_ID is unset)', {
        reason: 'not_configured',
      });
    }
    return this.settings.clientId;
  }

  /** The page the user authorizes the app on (PKCE S256). */
  authorizeUrl(p: { state: string; challenge: string; redirectUri: string }): string {
    const url = new URL(`${this.settings.authBaseUrl}/i/oauth2/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.clientId(),
      redirect_uri: p.redirectUri,
      scope: X_SCOPES,
      state: p.state,
      code_challenge: p.challenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  exchangeCode(p: { code: string; verifier: string; redirectUri: string }): Promise<XTokens> {
    return this.token({
      grant_type: 'authorization_code',
      code: p.code,
      code_verifier: p.verifier,
      redirect_uri: p.redirectUri,
    });
  }

  refresh(refreshToken: string): Promise<XTokens> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  /** Revokes a token at X (disconnect). */
  async revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<void> {
    const res = await this.form('/2/oauth2/revoke', { token, token_type_hint: hint });
    if (res.status >= 400) throw failure(res, 'revoke');
  }

  async me(accessToken: string): Promise<{ id: string; username: string }> {
    const res = await this.call('GET', '/2/users/me', accessToken);
    if (res.status !== 200) throw failure(res, 'users/me');
    const data = json(res)?.data as { id?: unknown; username?: unknown } | undefined;
    if (typeof data?.id !== 'string' || typeof data.username !== 'string') {
      throw new XApiError('rejected', 'X users/me answered without an id and username', res.status);
    }
    return { id: data.id, username: data.username };
  }

  /** Posts; resolves X's post id. */
  async post(accessToken: string, p: { text: string; inReplyTo?: string }): Promise<{ id: string }> {
    const body: Record<string, unknown> = { text: p.text };
    if (p.inReplyTo) body.reply = { in_reply_to_tweet_id: p.inReplyTo };
    const res = await this.call('POST', '/2/tweets', accessToken, body);
    if (res.status !== 201 && res.status !== 200) throw failure(res, 'tweets');
    const id = (json(res)?.data as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string')
      throw new XApiError('transient', 'X answered the post without an id', res.status);
    return { id };
  }

  private async token(params: Record<string, string>): Promise<XTokens> {
    const res = await this.form('/2/oauth2/token', params);
    if (res.status !== 200) throw failure(res, 'token');
    const body = json(res) as Record<string, unknown> | undefined;
    if (typeof body?.access_token !== 'string') {
      throw new XApiError('rejected', 'X token endpoint answered without an access_token', res.status);
    }
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 7200;
    return {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
      expiresAt: new Date(Date.now() + expiresIn * 1000),
      scope: typeof body.scope === 'string' ? body.scope : X_SCOPES,
    };
  }

  /** A form POST to the token endpoints: client id in the body, or HTTP Basic for a confidential client. */
  private form(path: string, params: Record<string, string>): Promise<NetHttpResult> {
    const clientId = this.clientId();
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    const form = new URLSearchParams(params);
    if (this.settings.clientSecret) {
      const basic = `${encodeURIComponent(clientId)}:${encodeURIComponent(this.settings.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
    } else {
      form.set('client_id', clientId);
    }
    return this.send('POST', path, headers, form.toString());
  }

  private call(method: 'GET' | 'POST', path: string, accessToken: string, body?: unknown) {
    const headers: Record<string, string> = { authorization: `Bearer ${accessToken}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return this.send(method, path, headers, body === undefined ? undefined : JSON.stringify(body));
  }

  private async send(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<NetHttpResult> {
    const input = {
      url: `${this.settings.apiBaseUrl}${path}`,
      headers,
      timeout: CALL_TIMEOUT_MS,
      followRedirects: false,
      ...(body === undefined ? {} : { body }),
    };
    try {
      return await this.egress.request(method, input, { allowedDomains: [] });
    } catch (err) {
      if (isAppError(err) && (err.code === 'UNAVAILABLE' || err.code === 'DEADLINE_EXCEEDED')) {
        throw new XApiError('transient', `X could not be reached: ${err.message}`);
      }
      if (isAppError(err)) throw new XApiError('rejected', `X call refused: ${err.message}`);
      throw err;
    }
  }
}

function json(res: NetHttpResult): Record<string, unknown> | undefined {
  if (res.bodyEncoding !== 'utf8') return undefined;
  try {
    const parsed: unknown = JSON.parse(res.body);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** What X said, briefly (its `detail`, `error_description`, `title` or `error`). */
function upstreamMessage(res: NetHttpResult): string {
  const body = json(res);
  const said = [body?.detail, body?.error_description, body?.title, body?.error].find(
    (v): v is string => typeof v === 'string',
  );
  return said ? said.slice(0, 300) : `HTTP ${res.status}`;
}

function failure(res: NetHttpResult, what: string): XApiError {
  const message = `X ${what} answered ${res.status}: ${upstreamMessage(res)}`;
  if (res.status === 429) {
    const reset = Number(res.headers['x-rate-limit-reset']);
    const retryAfter = Number(res.headers['retry-after']);
    const resetAt =
      Number.isFinite(reset) && reset > 0
        ? new Date(reset * 1000)
        : Number.isFinite(retryAfter) && retryAfter > 0
          ? new Date(Date.now() + retryAfter * 1000)
          : undefined;
    return new XApiError('rate_limited', message, 429, resetAt);
  }
  if (res.status >= 500 || res.status === 408) return new XApiError('transient', message, res.status);
  if (res.status === 401) return new XApiError('unauthorized', message, 401);
  return new XApiError('rejected', message, res.status);
}

/** An X failure as the HTTP error of a route (connect, callback, disconnect). */
export function asAppError(err: unknown): unknown {
  if (!(err instanceof XApiError)) return err;
  if (err.kind === 'rate_limited') {
    const seconds = err.resetAt ? Math.max(1, Math.ceil((err.resetAt.getTime() - Date.now()) / 1000)) : 60;
    return errors.rateLimited(err.message, seconds);
  }
  if (err.kind === 'transient') return errors.unavailable(err.message, { upstream: 'x' });
  return new AppError('CONFLICT', err.message, { upstream: 'x', upstreamStatus: err.status ?? null });
}
