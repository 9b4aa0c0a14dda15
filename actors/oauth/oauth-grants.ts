import { createHash, timingSafeEqual } from 'node:crypto';
import type { Principal } from '../../schemas/auth';
import type { OAuthConsentDocument, OAuthGrantDocument } from '../../schemas/documents/oauth';
import type { OAuthTokenBody } from '../../schemas/http/oauth';
import { TokensViewReplySchema } from '../../schemas/messages/named-tokens';
import type { ActorSystemApi } from '../../src/kernel';
import type { DocumentStore } from '../../src/store/mongo';
import {
  hashSecret,
  newId,
  newSecret,
  oauthClientsCollection,
  oauthCodesCollection,
  oauthGrantsCollection,
} from './oauth.collection';

/**
 * Codes, access tokens and refresh tokens (docs/oauth.md). An access token is the value of a
 * named token of the user's account with the scope `mcp_connector` (named "MCP: <client>"): the
 * user sees it, revokes it and rotates it in `/api/bearer-tokens`, and revoking it ends the grant.
 * Every code and every refresh token is good once: a second use of either revokes the grant.
 */

export const OAUTH_SCOPE = 'mcp_connector';
const CODE_TTL_MS = 60_000;
/** How long a refresh token (and so the grant) lives unused. */
const REFRESH_TTL_MS = 30 * 24 * 3600_000;

/** An OAuth error (RFC 6749 §5.2): its `error` code, its description and HTTP status. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** PKCE S256 (RFC 7636): base64url(SHA-256(verifier)) equals the challenge, compared in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** The account as it consented (the named-tokens actor checks who manages the account's tokens). */
const accountPrincipal = (accountId: string): Principal => ({
  subjectType: 'account',
  accountId,
  via: 'session',
});

export class OAuthGrants {
  private readonly clients;
  private readonly codes;
  private readonly grants;

  constructor(
    documents: DocumentStore,
    private readonly system: Pick<ActorSystemApi, 'ask'>,
  ) {
    this.clients = documents.repository(oauthClientsCollection);
    this.codes = documents.repository(oauthCodesCollection);
    this.grants = documents.repository(oauthGrantsCollection);
  }

  /** A code for an approved request. */
  async issueCode(consent: OAuthConsentDocument): Promise<string> {
    const code = newSecret();
    await this.codes.insert({
      _id: hashSecret(code),
      clientId: consent.clientId,
      redirectUri: consent.redirectUri,
      codeChallenge: consent.codeChallenge,
      accountId: consent.accountId,
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    });
    return code;
  }

  async token(body: OAuthTokenBody): Promise<TokenAnswer> {
    return body.grant_type === 'authorization_code' ? this.exchange(body) : this.refresh(body);
  }

  private async exchange(body: Extract<OAuthTokenBody, { grant_type: 'authorization_code' }>) {
    const id = hashSecret(body.code);
    // Single use: only the first exchange marks the code; a replay finds it marked.
    const code = await this.codes.findOneAndUpdate(
      { _id: id, usedAt: { $exists: false } },
      { $set: { usedAt: new Date() } },
    );
    if (!code) {
      const used = await this.codes.findById(id);
      if (used?.grantId) await this.revokeGrant(used.grantId);
      throw new OAuthError('invalid_grant', 'The authorization code is unknown, expired or already used');
    }
    if (code.expiresAt.getTime() < Date.now())
      throw new OAuthError('invalid_grant', 'The authorization code expired');
    if (code.clientId !== body.client_id || code.redirectUri !== body.redirect_uri) {
      throw new OAuthError(
        'invalid_grant',
        'client_id or redirect_uri differ from the authorization request',
      );
    }
    if (!pkceMatches(body.code_verifier, code.codeChallenge)) {
      throw new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge');
    }
    const client = await this.clients.findById(code.clientId);
    if (!client) throw new OAuthError('invalid_client', 'Unknown client', 401);
    const grantId = newId('oag');
    const name = `MCP: ${client.clientName.slice(0, 70)} ${grantId.slice(-6)}`;
    const reply = TokensViewReplySchema.parse(
      await this.system.ask(
        `named-tokens:${code.accountId}`,
        'named-tokens.create',
        { name, scopes: [OAUTH_SCOPE] },
        { auth: accountPrincipal(code.accountId) },
      ),
    );
    const refresh = newSecret();
    const now = new Date();
    await this.grants.insert({
      _id: grantId,
      accountId: code.accountId,
      clientId: client._id,
      namedTokenId: reply.token.id,
      refreshHash: hashSecret(refresh),
      usedHashes: [],
      status: 'live',
      createdAt: now,
      expiresAt: new Date(now.getTime() + REFRESH_TTL_MS),
    });
    await this.codes.updateOne({ _id: id }, { $set: { grantId } });
    return answer(reply.bearerToken!, reply.token.expiresAt, refresh);
  }

  private async refresh(body: Extract<OAuthTokenBody, { grant_type: 'refresh_token' }>) {
    const hash = hashSecret(body.refresh_token);
    const next = newSecret();
    // Rotation, atomically: the presented token stops being the current one as the new one starts.
    const grant = await this.grants.findOneAndUpdate(
      { refreshHash: hash, status: 'live', clientId: body.client_id, expiresAt: { $gt: new Date() } },
      {
        $set: {
          refreshHash: hashSecret(next),
          refreshedAt: new Date(),
          expiresAt: new Date(Date.now() + REFRESH_TTL_MS),
        },
        $push: { usedHashes: hash },
      },
    );
    if (!grant) {
      // A used refresh token presented again: someone holds a copy; the whole grant ends.
      const reused = await this.grants.findOne({ usedHashes: hash });
      if (reused) await this.revokeGrant(reused._id);
      throw new OAuthError('invalid_grant', 'The refresh token is unknown, expired, revoked or already used');
    }
    let reply;
    try {
      reply = TokensViewReplySchema.parse(
        await this.system.ask(
          `named-tokens:${grant.accountId}`,
          'named-tokens.update',
          { id: grant.namedTokenId, action: 'rotate' },
          { auth: accountPrincipal(grant.accountId) },
        ),
      );
    } catch {
      // The user revoked the token in /api/bearer-tokens (or it is gone): so is the grant.
      await this.grants.updateOne({ _id: grant._id }, { $set: { status: 'revoked' } });
      throw new OAuthError('invalid_grant', 'The access was revoked');
    }
    return answer(reply.bearerToken!, reply.token.expiresAt, next);
  }

  /** Ends a grant: its named token revoked, its refresh token dead. */
  async revokeGrant(grantId: string): Promise<void> {
    const grant: OAuthGrantDocument | null = await this.grants.findOneAndUpdate(
      { _id: grantId, status: 'live' },
      { $set: { status: 'revoked' } },
    );
    if (!grant) return;
    await this.system
      .ask(
        `named-tokens:${grant.accountId}`,
        'named-tokens.revoke',
        { id: grant.namedTokenId },
        { auth: accountPrincipal(grant.accountId) },
      )
      .catch(() => undefined);
  }
}

function answer(accessToken: string, expiresAt: string, refresh: string): TokenAnswer {
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000)),
    refresh_token: refresh,
    scope: OAUTH_SCOPE,
  };
}
