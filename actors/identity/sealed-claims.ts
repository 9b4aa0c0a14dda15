import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The claims of a token that name something inside the service (the subject `acc_…`/`agt_…`, the
 * owner account, the named token, the scopes, the issue time in ms) travel encrypted: a token
 * shows only `{jti, iat, exp, enc}`. Anyone can still base64-decode a JWT; what they find is a
 * random id, two times and a ciphertext, never an internal id from which another tenant's names
 * (a private-database schema, an actor address) could be computed.
 *
 * `enc` is base64url(iv ‖ ciphertext ‖ tag): AES-256-GCM, a random 96-bit IV per token, the
 * token's `jti` as additional data (the ciphertext cannot be moved into another token), under a
 * key derived from `JWT_SECRET` by HKDF-SHA256 (its own label: the signing key and this key
 * never coincide). The HMAC of the JWT is still checked first; GCM's tag is the second lock.
 * Cost: about two microseconds per token on first sight; `TokenService` then remembers the
 * opened claims, so the hot path (`POST /mcp` with the same token) opens nothing.
 */

/** The claim holding the sealed part. */
export const SEALED_CLAIM = 'enc';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_LABEL = 'agent-runtime-service token claims v1';

export class ClaimsSealer {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), KEY_LABEL, 32));
  }

  /** The sealed form of `claims` for the token `jti`. */
  seal(jti: string, claims: Record<string, unknown>): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(jti, 'utf8'));
    const body = Buffer.concat([cipher.update(JSON.stringify(claims), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The claims sealed for `jti`, or undefined when `sealed` is not such a thing (any failure). */
  open(jti: string, sealed: string): Record<string, unknown> | undefined {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(jti, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const text = Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
      const claims: unknown = JSON.parse(text);
      if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) return undefined;
      return claims as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }

  /**
   * The full claims of a verified JWT payload: the sealed ones opened and merged with the visible
   * `jti`, `iat` and `exp`. A payload without `enc` (a token issued before claims were sealed) is
   * returned as it is. Undefined when `enc` does not open.
   */
  claimsOf(payload: Record<string, unknown>): Record<string, unknown> | undefined {
    const sealed = payload[SEALED_CLAIM];
    if (sealed === undefined) return payload;
    if (typeof sealed !== 'string' || typeof payload.jti !== 'string') return undefined;
    const opened = this.open(payload.jti, sealed);
    if (!opened) return undefined;
    return { ...opened, jti: payload.jti, iat: payload.iat, exp: payload.exp };
  }
}
