/** URL parsing without the platform's URL class (absent in the sandbox): RFC 3986 components. */
function library() {
  const RE =
    /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/(?:([^:@/?#]*)(?::([^@/?#]*))?@)?(\[[0-9a-fA-F:.]+\]|[^:/?#]*)(?::(\d{1,5}))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/;
  const DEFAULT_PORTS = { http: 80, https: 443, ftp: 21, ws: 80, wss: 443 };
  const decode = (s) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch (e) {
      return s;
    }
  };
  function removeDots(path) {
    const out = [];
    for (const seg of path.split('/')) {
      if (seg === '..') {
        if (out.length > 1) out.pop();
      } else if (seg !== '.') out.push(seg);
    }
    const joined = out.join('/');
    return joined === '' ? '/' : joined;
  }
  function parse(input) {
    const m = RE.exec(String(input).trim());
    if (!m) return { input: String(input), valid: false, reason: 'not_an_absolute_url' };
    const scheme = m[1].toLowerCase();
    const host = m[4].toLowerCase();
    if (!host) return { input: String(input), valid: false, reason: 'missing_host' };
    if (!/^\[.*\]$/.test(host) && !/^[a-z0-9.-]+$/i.test(host))
      return { input: String(input), valid: false, reason: 'bad_host' };
    const port = m[5] ? Number(m[5]) : null;
    if (port !== null && port > 65535) return { input: String(input), valid: false, reason: 'bad_port' };
    const query = [];
    if (m[7]) {
      for (const pair of m[7].split('&')) {
        if (!pair) continue;
        const eq = pair.indexOf('=');
        query.push(eq < 0 ? [decode(pair), ''] : [decode(pair.slice(0, eq)), decode(pair.slice(eq + 1))]);
      }
    }
    return {
      input: String(input),
      valid: true,
      scheme,
      username: m[2] ? decode(m[2]) : null,
      hasPassword: m[3] !== undefined,
      host,
      port,
      effectivePort: port !== null ? port : DEFAULT_PORTS[scheme] || null,
      path: m[6] || '/',
      query,
      fragment: m[8] === undefined ? null : decode(m[8]),
      ipHost: /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || /^\[/.test(host),
    };
  }
  const TRACKING = /^(utm_[a-z]+|gclid|fbclid|mc_cid|mc_eid|msclkid|ref_src)$/;
  function normalize(input, options) {
    const u = parse(input);
    if (!u.valid) return u;
    let query = u.query;
    if (options && options.stripTracking) query = query.filter((q) => !TRACKING.test(q[0]));
    if (options && options.sortQuery)
      query = query.slice().sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const enc = (s) => encodeURIComponent(s).replace(/%20/g, '+');
    const port = u.port !== null && u.port !== DEFAULT_PORTS[u.scheme] ? ':' + u.port : '';
    const q = query.length
      ? '?' + query.map((p) => enc(p[0]) + (p[1] === '' ? '' : '=' + enc(p[1]))).join('&')
      : '';
    const fragment = options && options.dropFragment ? '' : u.fragment !== null ? '#' + u.fragment : '';
    return u.scheme + '://' + u.host + port + removeDots(u.path) + q + fragment;
  }
  return { parse, normalize };
}
