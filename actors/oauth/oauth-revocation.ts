import type { TokenService } from '../identity/token-service';
import type { DocumentStore } from '../../src/store/mongo';
import type { OAuthGrants } from './oauth-grants';
import { hashSecret, oauthGrantsCollection } from './oauth.collection';

/**
 * Token revocation (RFC 7009, docs/oauth.md). Both kinds of token end the same way, the whole
 * grant: a refresh token's grant and the named token its access tokens are values of, or an access
 * token's named token (as if revoked in `/api/bearer-tokens`) and the grant that refreshes it.
 *
 * What the client is not owed an answer about stays silent: an unknown, expired or already revoked
 * token, or a token issued to another client, is left as it is and the endpoint still answers 200
 * (RFC 7009 §2.2), so the endpoint tells nobody whether a value exists.
 */

export type TokenTypeHint = 'access_token' | 'refresh_token';

export class OAuthRevocation {
  private readonly grants;

  constructor(
    documents: DocumentStore,
    private readonly tokens: Pick<TokenService, 'verify'>,
    private readonly granted: Pick<OAuthGrants, 'revokeGrant'>,
  ) {
    this.grants = documents.repository(oauthGrantsCollection);
  }

  /** Revokes what `token` grants if `clientId` holds it; resolves either way. */
  async revoke(clientId: string, token: string, hint?: string): Promise<void> {
    // The hint only orders the search (RFC 7009 §2.1): a server that misses with it looks further.
    const order: TokenTypeHint[] =
      hint === 'access_token' ? ['access_token', 'refresh_token'] : ['refresh_token', 'access_token'];
    for (const kind of order) {
      const grantId =
        kind === 'refresh_token' ? await this.grantOfRefresh(token) : await this.grantOfAccess(token);
      if (grantId === undefined) continue;
      const grant = await this.grants.findById(grantId);
      if (grant?.clientId === clientId) await this.granted.revokeGrant(grant._id);
      return;
    }
  }

  /** The live grant whose current refresh token this is (refresh tokens are stored hashed). */
  private async grantOfRefresh(token: string): Promise<string | undefined> {
    const grant = await this.grants.findOne({ refreshHash: hashSecret(token), status: 'live' });
    return grant?._id;
  }

  /**
   * The live grant of an access token: a valid (signed, unexpired, unrevoked) named token's value,
   * found by its named token id. A rotated-away value is already refused, so nothing to do.
   */
  private async grantOfAccess(token: string): Promise<string | undefined> {
    // Not a JWT at all: no need to ask the verifier (a refresh token is 43 base64url characters).
    if (token.split('.').length !== 3) return undefined;
    const claims = await this.tokens.verify(token).catch(() => undefined);
    if (claims?.typ !== 'named' || claims.tid === undefined) return undefined;
    const grant = await this.grants.findOne({ namedTokenId: claims.tid, status: 'live' });
    return grant?._id;
  }
}
