import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcrypt';

/** bcrypt cost of production hashes (about 50–100 ms on one core). */
export const DEFAULT_BCRYPT_COST = 10;

/**
 * Hashing and checking passwords with bcrypt. bcrypt runs on libuv's thread pool: callers still
 * keep it out of an actor's turn (`ctx.defer`) so one slow hash never holds a mailbox.
 */
export class PasswordHasher {
  private dummy?: Promise<string>;

  constructor(private readonly cost: number = DEFAULT_BCRYPT_COST) {}

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.cost);
  }

  /**
   * Checks a password against a hash; with no hash (unknown email) it still spends the time of one
   * comparison, so the answer's timing does not tell which emails have accounts.
   */
  async verify(password: string, hash: string | undefined): Promise<boolean> {
    if (hash === undefined) {
      this.dummy ??= bcrypt.hash(randomBytes(16).toString('hex'), this.cost);
      await bcrypt.compare(password, await this.dummy);
      return false;
    }
    return bcrypt.compare(password, hash);
  }
}

/** sha256 of a secret token, hex: how one-time tokens are stored. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time equality of two secrets (compared through their sha256 digests: equal lengths). */
export function secretsEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db);
}

/** A random URL-safe token (256 bits by default). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
