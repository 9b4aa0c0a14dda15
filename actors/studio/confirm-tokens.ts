import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../../schemas/auth';
import type { CachePort } from '../../src/store/cache/cache.port';

/** How long a preview's confirmToken stays valid, in seconds. */
export const CONFIRM_TOKEN_TTL_S = 300;

const KEY_PREFIX = 'studio:confirm:';

/** Who the token is for: the caller as authenticated (a named token is a caller of its own). */
function callerKey(principal: Principal): string {
  return [
    principal.subjectType,
    principal.accountId ?? '',
    principal.agentId ?? '',
    principal.tokenId ?? '',
  ].join('|');
}

/**
 * The cache key of one token: a sha256 of the caller, the exact normalised command, the advanced
 * mode and the token itself. A token presented for another command, another caller or another
 * mode names a key that does not exist.
 */
function keyOf(principal: Principal, normalized: string, advancedMode: boolean, token: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([callerKey(principal), normalized, advancedMode, token]))
    .digest('hex');
  return `${KEY_PREFIX}${hash}`;
}

/** Single-use confirmation tokens of mutating Studio commands (docs/studio.md). */
export class ConfirmTokens {
  constructor(private readonly cache: CachePort) {}

  /** A new token for this caller and command, valid CONFIRM_TOKEN_TTL_S seconds. */
  async issue(principal: Principal, normalized: string, advancedMode: boolean): Promise<string> {
    const token = `sct_${randomBytes(24).toString('base64url')}`;
    await this.cache.set(keyOf(principal, normalized, advancedMode, token), '1', {
      ttlMs: CONFIRM_TOKEN_TTL_S * 1000,
    });
    return token;
  }

  /** Whether the token is valid for this caller, command and mode; a valid token is spent (single use). */
  async redeem(
    principal: Principal,
    normalized: string,
    advancedMode: boolean,
    token: string,
  ): Promise<boolean> {
    if (!/^sct_[A-Za-z0-9_-]{32}$/.test(token)) return false;
    return (await this.cache.take(keyOf(principal, normalized, advancedMode, token))) !== null;
  }
}
