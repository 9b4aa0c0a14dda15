/** HMAC of a message with a key given in the params (for keys kept in the vault, see webhook-signer). */
function run(params) {
  const mac = lib.hmac(params.algorithm || 'sha256', lib.utf8(params.key), lib.utf8(params.message));
  const out = { algorithm: params.algorithm || 'sha256', hex: lib.hex(mac), base64: lib.base64(mac) };
  if (params.expected !== undefined) {
    const want = params.expected.toLowerCase();
    let diff = want.length ^ out.hex.length;
    for (let i = 0; i < Math.min(want.length, out.hex.length); i++)
      diff |= want.charCodeAt(i) ^ out.hex.charCodeAt(i);
    out.matches = diff === 0;
  }
  return out;
}
