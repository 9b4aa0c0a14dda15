/** The valid addresses in a text (mailto: links included), deduplicated case-insensitively, with counts per domain. */
function run(params) {
  const candidates =
    params.text.match(/[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,63}/g) || [];
  const seen = {};
  const emails = [];
  const domains = {};
  for (const c of candidates) {
    const r = lib.check(c.replace(/^[.]+|[.]+$/g, ''));
    if (!r.valid) continue;
    const key = r.normalized.toLowerCase();
    if (seen[key]) continue;
    seen[key] = true;
    emails.push(r.normalized);
    domains[r.domain] = (domains[r.domain] || 0) + 1;
  }
  return { count: emails.length, emails, domains };
}
