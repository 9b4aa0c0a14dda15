/**
 * Decodes a JWT's header and claims (base64url through the hash-toolkit library, a required
 * dependency), checks its times against `now`, and verifies an HS256/HS1 signature when a key is given.
 */
function run(params) {
  const h = deps['hash-toolkit'];
  const parts = params.token.trim().split('.');
  if (parts.length !== 3) throw new Error('A JWT has three dot-separated parts');
  const decode = (part, what) => {
    try {
      return JSON.parse(h.fromUtf8(h.fromBase64(part)));
    } catch (e) {
      throw new Error('The ' + what + ' is not base64url JSON', { cause: e });
    }
  };
  const header = decode(parts[0], 'header');
  const claims = decode(parts[1], 'payload');
  const now = params.now === undefined ? Math.floor(Date.now() / 1000) : params.now;
  const leeway = params.leewaySeconds || 0;
  const iso = (s) => (typeof s === 'number' ? new Date(s * 1000).toISOString() : null);
  const problems = [];
  if (typeof claims.exp === 'number' && now > claims.exp + leeway) problems.push('expired');
  if (typeof claims.nbf === 'number' && now + leeway < claims.nbf) problems.push('not_yet_valid');
  if (typeof claims.iat === 'number' && claims.iat > now + leeway) problems.push('issued_in_the_future');
  if (header.alg === 'none') problems.push('unsigned');
  let signature = 'not_checked';
  if (params.key !== undefined) {
    const algs = { HS256: 'sha256', HS1: 'sha1' };
    if (!algs[header.alg]) {
      signature = 'unsupported_algorithm';
    } else {
      const mac = h.base64(h.hmac(algs[header.alg], h.utf8(params.key), h.utf8(parts[0] + '.' + parts[1])));
      const given = parts[2].replace(/-/g, '+').replace(/_/g, '/');
      signature = mac.replace(/=+$/, '') === given.replace(/=+$/, '') ? 'valid' : 'invalid';
      if (signature === 'invalid') problems.push('bad_signature');
    }
  }
  return {
    header,
    claims,
    times: { issuedAt: iso(claims.iat), notBefore: iso(claims.nbf), expiresAt: iso(claims.exp) },
    signature,
    problems,
    usable: problems.length === 0 && signature !== 'invalid',
  };
}
