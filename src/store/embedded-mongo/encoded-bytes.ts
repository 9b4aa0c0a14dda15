/**
 * The bytes a document is already known to encode to, kept until the store journals it, so that
 * the journal record is built around them instead of encoding the document again:
 *
 * - an inserted document: the bytes it arrived in, from the insert's document sequence (the same
 *   bytes decode to the same document on recovery, both read with the wire's options);
 * - an updated document: the bytes its size check encoded (`validateDocument` with `encode`),
 *   which otherwise walked the document once to size it and the journal once more to encode it.
 *
 * The journal's encoding was a third of the embedded server's BSON work under a burst of inserts
 * (docs/studio.md, "Storage (seventh pass)"). Weak and taken once: a document that is never stored
 * (a duplicate key) lets go of its bytes with it, and a stored one (kept for as long as the data)
 * holds none of them once journaled.
 */
const encoded = new WeakMap<object, Uint8Array>();

export function rememberEncoded(doc: object, bytes: Uint8Array): void {
  encoded.set(doc, bytes);
}

/** The bytes `doc` is known to encode to, if any, forgotten from now on. */
export function takeEncoded(doc: object): Uint8Array | undefined {
  const bytes = encoded.get(doc);
  if (bytes) encoded.delete(doc);
  return bytes;
}
