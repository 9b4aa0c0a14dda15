/** Digests of a UTF-8 text in the requested algorithms, as hex and base64. */
function run(params) {
  const bytes = lib.utf8(params.text);
  const out = {};
  for (const algorithm of params.algorithms || ['sha256']) {
    const d = lib.digest(algorithm, bytes);
    out[algorithm] = { hex: lib.hex(d), base64: lib.base64(d) };
  }
  return { bytes: bytes.length, digests: out };
}
