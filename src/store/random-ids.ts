import { randomFillSync } from 'node:crypto';

/** Bytes drawn from the operating system at once; the ids of hundreds of records. */
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let offset = POOL_BYTES;

/**
 * `bytes` random bytes from the system's CSPRNG as text, as `randomBytes(bytes).toString(encoding)`
 * would give, without a call into the system per id: a burst of requests creates several records
 * each, and `randomBytes` per id was about a twentieth of a request's CPU. Every byte is used once.
 */
export function randomText(bytes: number, encoding: 'hex' | 'base64url'): string {
  if (bytes > POOL_BYTES) throw new RangeError(`randomText: at most ${POOL_BYTES} bytes`);
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const text = pool.toString(encoding, offset, offset + bytes);
  offset += bytes;
  return text;
}
