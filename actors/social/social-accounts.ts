import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { errors } from '../../schemas/errors';
import type { Logger } from '../../src/logging/logger';
import type { CachePort } from '../../src/store/cache';
import type { Repository } from '../../src/store/mongo';
import type { OAuthStateDocument, SocialAccountDocument } from './social.collection';
import type { SocialTokenCipher } from './social-tokens';
import { XApiError, type XApi, type XTokens } from './x-api';

/** How long an authorization may take between connect and callback. */
const STATE_TTL_MS = 10 * 60_000;
/** A token this close to its expiry is refreshed before use (and by the publisher's pass). */
export const REFRESH_AHEAD_MS = 5 * 60_000;
const REFRESH_LOCK_MS = 30_000;

export interface AccountView {
  id: string;
  username: string;
  status: SocialAccountDocument['status'];
  platform: 'x';
  connectedAt: string;
}

export const accountView = (a: SocialAccountDocument): AccountView => ({
  id: a._id,
  username: a.username,
  status: a.status,
  platform: a.platform,
  connectedAt: a.connectedAt.toISOString(),
});

/** SHA-256, hex: how a session id or bearer token is kept in a state document. */
export const bindingOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

export interface SocialAccountsDeps {
  accounts: Repository<SocialAccountDocument>;
  states: Repository<OAuthStateDocument>;
  cipher: SocialTokenCipher;
  x: XApi;
  cache: CachePort;
  callbackUrl: string;
  logger: Logger;
}

/**
 * Connected X accounts (docs/social.md, "Connecting"): the OAuth 2.0 authorization code flow with
 * PKCE S256, single-use `state` bound to the caller's session, tokens sealed at rest and refreshed
 * before they expire, and disconnect with an upstream revoke.
 */
export class SocialAccounts {
  constructor(private readonly deps: SocialAccountsDeps) {}

  /** Starts an authorization: a fresh state and PKCE pair, kept ten minutes; answers X's authorize URL. */
  async connect(
    ownerAccountId: string,
    binding: string,
    redirectTo: string,
  ): Promise<{ authorizationUrl: string }> {
    const state = randomBytes(32).toString('base64url');
    const verifier = randomBytes(48).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorizationUrl = this.deps.x.authorizeUrl({
      state,
      challenge,
      redirectUri: this.deps.callbackUrl,
    });
    await this.deps.states.insert({
      _id: state,
      ownerAccountId,
      binding,
      verifier: this.deps.cipher.seal(state, 'pkce-verifier', verifier),
      redirectTo,
      expiresAt: new Date(Date.now() + STATE_TTL_MS),
    });
    return { authorizationUrl };
  }

  /**
   * The callback: the state must exist, be unexpired, belong to this caller's account and session,
   * and is consumed (deleted) before the code is exchanged, so a replay finds nothing. Resolves
   * the connected account and where to send the browser.
   */
  async complete(
    ownerAccountId: string,
    binding: string,
    q: { state: string; code?: string; error?: string },
  ): Promise<{ account: AccountView; redirectTo: string }> {
    const doc = await this.deps.states.findById(q.state);
    if (!doc || doc.expiresAt.getTime() <= Date.now()) {
      throw errors.validation('Unknown or expired OAuth state: start again with POST /api/x/connect', {
        reason: 'invalid_state',
      });
    }
    if (doc.ownerAccountId !== ownerAccountId || doc.binding !== binding) {
      throw errors.forbidden('This OAuth state belongs to another session', { reason: 'state_mismatch' });
    }
    // Single use: only the request that deletes it goes on.
    if (!(await this.deps.states.deleteOne({ _id: doc._id, binding: doc.binding }))) {
      throw errors.validation('This OAuth state was already used', { reason: 'invalid_state' });
    }
    if (q.error || !q.code) {
      throw errors.validation(`X did not authorize the connection: ${q.error ?? 'no code'}`, {
        reason: 'access_denied',
      });
    }
    const verifier = this.deps.cipher.open(doc._id, 'pkce-verifier', doc.verifier);
    let tokens: XTokens;
    let me: { id: string; username: string };
    try {
      tokens = await this.deps.x.exchangeCode({ code: q.code, verifier, redirectUri: this.deps.callbackUrl });
      me = await this.deps.x.me(tokens.accessToken);
    } catch (err) {
      if (err instanceof XApiError && (err.kind === 'rejected' || err.kind === 'unauthorized')) {
        throw errors.validation(`X refused the authorization code: ${err.message}`, {
          reason: 'code_refused',
        });
      }
      throw err;
    }
    const account = await this.store(ownerAccountId, me, tokens);
    this.deps.logger.info(
      { socialAccountId: account._id, username: account.username },
      'social: X account connected',
    );
    return { account: accountView(account), redirectTo: doc.redirectTo };
  }

  /** Inserts the account, or renews the tokens of the same X user connected again. */
  private async store(
    ownerAccountId: string,
    me: { id: string; username: string },
    tokens: XTokens,
  ): Promise<SocialAccountDocument> {
    const now = new Date();
    const existing = await this.deps.accounts.findOne({ ownerAccountId, platform: 'x', externalId: me.id });
    const id = existing?._id ?? randomUUID();
    const sealed = this.sealTokens(id, tokens);
    if (existing) {
      const updated = await this.deps.accounts.findOneAndUpdate(
        { _id: id },
        {
          $set: { username: me.username, status: 'connected', tokens: sealed, updatedAt: now },
          $inc: { tokenVersion: 1 },
        },
      );
      if (updated) return updated;
    }
    return this.deps.accounts.insert({
      _id: id,
      ownerAccountId,
      platform: 'x',
      externalId: me.id,
      username: me.username,
      status: 'connected',
      tokens: sealed,
      tokenVersion: 0,
      connectedAt: now,
      updatedAt: now,
    });
  }

  private sealTokens(id: string, tokens: XTokens): SocialAccountDocument['tokens'] {
    return {
      access: this.deps.cipher.seal(id, 'access', tokens.accessToken),
      ...(tokens.refreshToken ? { refresh: this.deps.cipher.seal(id, 'refresh', tokens.refreshToken) } : {}),
      expiresAt: tokens.expiresAt,
      scope: tokens.scope,
    };
  }

  async list(ownerAccountId: string): Promise<AccountView[]> {
    const docs = await this.deps.accounts.find({ ownerAccountId }, { sort: { connectedAt: 1, _id: 1 } });
    return docs.map(accountView);
  }

  /** The caller's account, or 404 (another owner's id is not found either). */
  async get(ownerAccountId: string, id: string): Promise<SocialAccountDocument> {
    const doc = await this.deps.accounts.findOne({ _id: id, ownerAccountId });
    if (!doc) throw errors.notFound('X account not found');
    return doc;
  }

  /**
   * Disconnect: revokes the tokens at X (best effort: a token X no longer knows is revoked
   * already) and removes the account and its tokens. Resolves whether X confirmed the revoke.
   */
  async disconnect(ownerAccountId: string, id: string): Promise<{ revoked: boolean }> {
    const doc = await this.get(ownerAccountId, id);
    let revoked = true;
    for (const kind of ['refresh', 'access'] as const) {
      const sealed = doc.tokens[kind];
      if (!sealed) continue;
      try {
        await this.deps.x.revoke(this.deps.cipher.open(doc._id, kind, sealed), `${kind}_token`);
      } catch (err) {
        revoked = false;
        this.deps.logger.warn(
          { socialAccountId: id, err: err instanceof Error ? err.message : String(err) },
          'social: X revoke failed; the tokens are removed here anyway',
        );
      }
    }
    await this.deps.accounts.deleteOne({ _id: id, ownerAccountId });
    return { revoked };
  }

  /**
   * A usable access token: the stored one, or a refreshed one when it expires within five
   * minutes. One node refreshes at a time (X rotates refresh tokens: a second refresh with the
   * old one would fail); the others wait for it and read the result.
   */
  async accessToken(account: SocialAccountDocument): Promise<string> {
    let current = account;
    for (let i = 0; i < 20; i++) {
      if (current.status !== 'connected') {
        throw new XApiError('unauthorized', `X account @${current.username} needs to be connected again`);
      }
      if (current.tokens.expiresAt.getTime() - Date.now() > REFRESH_AHEAD_MS) {
        return this.deps.cipher.open(current._id, 'access', current.tokens.access);
      }
      const lock = this.deps.cache.namespace('social:refresh:');
      const token = randomUUID();
      if (await lock.set(current._id, token, { ttlMs: REFRESH_LOCK_MS, onlyIfAbsent: true })) {
        try {
          const fresh = (await this.deps.accounts.findById(current._id)) ?? current;
          if (fresh.tokens.expiresAt.getTime() - Date.now() > REFRESH_AHEAD_MS) {
            current = fresh;
            continue;
          }
          return await this.refresh(fresh);
        } finally {
          if ((await lock.get(current._id).catch(() => null)) === token) await lock.delete(current._id);
        }
      }
      await new Promise((r) => setTimeout(r, 250));
      current = (await this.deps.accounts.findById(current._id)) ?? current;
    }
    throw new XApiError('transient', 'The X token is being refreshed elsewhere; try again');
  }

  private async refresh(account: SocialAccountDocument): Promise<string> {
    if (!account.tokens.refresh) {
      await this.markNeedsReconnect(account, 'no refresh token');
      throw new XApiError(
        'unauthorized',
        `X account @${account.username}'s token expired and cannot be refreshed`,
      );
    }
    let tokens: XTokens;
    try {
      tokens = await this.deps.x.refresh(
        this.deps.cipher.open(account._id, 'refresh', account.tokens.refresh),
      );
    } catch (err) {
      if (err instanceof XApiError && (err.kind === 'rejected' || err.kind === 'unauthorized')) {
        await this.markNeedsReconnect(account, err.message);
        throw new XApiError(
          'unauthorized',
          `X refused to refresh @${account.username}'s token: ${err.message}`,
        );
      }
      throw err;
    }
    // X may answer without a new refresh token: the old one stays valid then.
    const sealed = this.sealTokens(account._id, tokens);
    if (!sealed.refresh && account.tokens.refresh) sealed.refresh = account.tokens.refresh;
    await this.deps.accounts.updateOne(
      { _id: account._id, tokenVersion: account.tokenVersion },
      { $set: { tokens: sealed, updatedAt: new Date() }, $inc: { tokenVersion: 1 } },
    );
    this.deps.logger.info({ socialAccountId: account._id }, 'social: X token refreshed');
    return tokens.accessToken;
  }

  private async markNeedsReconnect(account: SocialAccountDocument, why: string): Promise<void> {
    await this.deps.accounts.updateOne(
      { _id: account._id, tokenVersion: account.tokenVersion },
      { $set: { status: 'needs_reconnect', updatedAt: new Date() } },
    );
    this.deps.logger.warn({ socialAccountId: account._id, why }, 'social: X account needs reconnecting');
  }

  /** The publisher's pass: refreshes tokens of connected accounts expiring soon. Resolves how many. */
  async refreshExpiring(): Promise<number> {
    const due = await this.deps.accounts.find(
      { status: 'connected', 'tokens.expiresAt': { $lt: new Date(Date.now() + REFRESH_AHEAD_MS) } },
      { limit: 50 },
    );
    let n = 0;
    for (const account of due) {
      try {
        await this.accessToken(account);
        n++;
      } catch (err) {
        this.deps.logger.warn(
          { socialAccountId: account._id, err: err instanceof Error ? err.message : String(err) },
          'social: token refresh failed',
        );
      }
    }
    return n;
  }
}
