/** The http(s) URLs in a text, trailing punctuation removed, normalised and deduplicated, with their hosts. */
function run(params) {
  const found = params.text.match(/\bhttps?:\/\/[^\s<>"'`]+/gi) || [];
  const seen = {};
  const urls = [];
  const hosts = {};
  for (let raw of found) {
    raw = raw.replace(/[).,;:!?\]]+$/, '');
    const u = lib.parse(raw);
    if (!u.valid) continue;
    const normalized = lib.normalize(raw, {
      stripTracking: params.stripTracking !== false,
      dropFragment: true,
    });
    if (seen[normalized]) continue;
    seen[normalized] = true;
    urls.push({ url: raw, normalized, host: u.host });
    hosts[u.host] = (hosts[u.host] || 0) + 1;
  }
  return { count: urls.length, urls, hosts };
}
