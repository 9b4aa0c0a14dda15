import { createHash, randomBytes } from 'node:crypto';

/**
 * Makes envelope ids: a random prefix per generator and a counter. Cheaper than a UUID per
 * message, and unique across processes and restarts of the same node id (the prefix is random),
 * which matters because ids are remembered by the dedupe store.
 */
export function createIdGenerator(): () => string {
  const prefix = randomBytes(9).toString('base64url');
  let counter = 0;
  return () => `${prefix}${(counter++).toString(36)}`;
}

/** What every id made by `stableEnvelopeId` starts with; generated ids never hold a `:`. */
const STABLE_PREFIX = 'stable:';

/**
 * An envelope id derived from `seed` (for example a caller's idempotency key and its request):
 * the same seed gives the same id on every node, so a retried request is a duplicate the dedupe
 * store recognises. Such ids are claimed in the shared record whatever their kind declares
 * (`isStableEnvelopeId`), because the retry may land on another node than the first copy.
 */
export function stableEnvelopeId(seed: string): string {
  return STABLE_PREFIX + createHash('sha256').update(seed).digest('base64url');
}

/** Whether an envelope id was made by `stableEnvelopeId` (a caller may publish it twice). */
export function isStableEnvelopeId(id: string): boolean {
  return id.startsWith(STABLE_PREFIX);
}
