/**
 * GETs a JSON document through the platform's net_http_get, so the calling agent's allowed
 * domains, the service's SSRF guard, its rate limit and the panic lockdown apply; then picks
 * fields by dotted paths.
 */
function run(params) {
  const response = platform.call('net_http_get', { url: params.url, headers: params.headers || {} });
  const type = response.headers['content-type'] || '';
  if (response.bodyEncoding !== 'utf8') throw new Error('The answer is not text (' + type + ')');
  let data;
  try {
    data = JSON.parse(response.body);
  } catch (e) {
    throw new Error(
      'The answer is not JSON (HTTP ' + response.status + ', ' + (type || 'no content type') + ')',
      { cause: e },
    );
  }
  const pick = (value, path) =>
    path.split('.').reduce((v, key) => {
      if (v === null || v === undefined) return undefined;
      return Array.isArray(v) && /^\d+$/.test(key) ? v[Number(key)] : v[key];
    }, value);
  const out = {
    status: response.status,
    ok: response.status >= 200 && response.status < 300,
    url: response.url,
  };
  if (params.select && params.select.length > 0) {
    out.fields = {};
    for (const path of params.select) {
      const v = pick(data, path);
      out.fields[path] = v === undefined ? null : v;
    }
  } else {
    out.data = data;
  }
  if (response.truncated) out.truncated = true;
  return out;
}
