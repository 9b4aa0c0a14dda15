/**
 * Signs a webhook payload: HMAC-SHA256 of `<timestamp>.<payload>` under the secret
 * WEBHOOK_SIGNING_SECRET, computed by the platform from a vault runtime grant (the value never
 * enters this code), and the header `t=<timestamp>,v1=<signature>`.
 */
function run(params) {
  const payload = typeof params.payload === 'string' ? params.payload : JSON.stringify(params.payload);
  const timestamp = params.timestamp === undefined ? Math.floor(Date.now() / 1000) : params.timestamp;
  const mac = platform.call('secret.hmac', {
    secret: 'WEBHOOK_SIGNING_SECRET',
    message: timestamp + '.' + payload,
    algorithm: 'sha256',
  });
  return {
    timestamp,
    signature: mac.digest,
    header: 't=' + timestamp + ',v1=' + mac.digest,
    bytes: payload.length,
  };
}
