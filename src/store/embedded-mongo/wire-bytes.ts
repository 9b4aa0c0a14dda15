/**
 * The bytes each document of an insert's document sequence arrived in, kept from the moment the
 * wire decodes it until the store journals it. A document inserted unchanged is journaled with
 * those bytes instead of being encoded again: the same bytes decode to the same document on
 * recovery (both are read with the wire's options), and the journal's encoding was a third of the
 * embedded server's BSON work under a burst of inserts (docs/studio.md, "Storage (seventh pass)").
 *
 * Weak and taken once: a document that is never stored (a duplicate key) lets go of its bytes with
 * it, and a stored one (kept for as long as the data) holds none of them once journaled.
 */
const wireBytes = new WeakMap<object, Uint8Array>();

export function rememberWireBytes(doc: object, bytes: Uint8Array): void {
  wireBytes.set(doc, bytes);
}

/** The bytes `doc` arrived in, if any, forgotten from now on. */
export function takeWireBytes(doc: object): Uint8Array | undefined {
  const bytes = wireBytes.get(doc);
  if (bytes) wireBytes.delete(doc);
  return bytes;
}
