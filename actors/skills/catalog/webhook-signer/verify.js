/**
 * Verifies a received signature header (`t=…,v1=…`) for a payload with WEBHOOK_SIGNING_SECRET:
 * the signature (constant-time comparison) and the timestamp's age against a tolerance.
 */
function run(params) {
  const payload = typeof params.payload === 'string' ? params.payload : JSON.stringify(params.payload);
  const fields = {};
  for (const part of params.header.split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0)
      (fields[part.slice(0, eq).trim()] = fields[part.slice(0, eq).trim()] || []).push(
        part.slice(eq + 1).trim(),
      );
  }
  const t = fields.t && Number(fields.t[0]);
  if (!t || !fields.v1) return { valid: false, reason: 'malformed_header' };
  const now = params.now === undefined ? Math.floor(Date.now() / 1000) : params.now;
  const tolerance = params.toleranceSeconds === undefined ? 300 : params.toleranceSeconds;
  if (Math.abs(now - t) > tolerance)
    return { valid: false, reason: 'timestamp_outside_tolerance', ageSeconds: now - t };
  const expected = platform.call('secret.hmac', {
    secret: 'WEBHOOK_SIGNING_SECRET',
    message: t + '.' + payload,
    algorithm: 'sha256',
  }).digest;
  const same = (a, b) => {
    let diff = a.length ^ b.length;
    for (let i = 0; i < Math.min(a.length, b.length); i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
    return diff === 0;
  };
  const valid = fields.v1.some((v) => same(v.toLowerCase(), expected));
  return valid
    ? { valid: true, timestamp: t, ageSeconds: now - t }
    : { valid: false, reason: 'signature_mismatch' };
}
