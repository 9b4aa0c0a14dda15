import { randomBytes } from 'node:crypto';

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
