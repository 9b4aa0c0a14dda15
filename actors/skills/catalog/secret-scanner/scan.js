/**
 * Finds credentials leaked in text: known key formats (cloud, payment, chat, VCS tokens, private
 * keys, JWTs, connection strings with passwords) and generic `secret = "…"` assignments with a
 * high-entropy value. Findings are masked: the scanner never repeats a secret in full.
 */
function run(params) {
  const RULES = [
    { id: 'aws_access_key_id', severity: 'high', re: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g },
    { id: 'github_token', severity: 'high', re: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g },
    { id: 'slack_token', severity: 'high', re: /\bxox[baprs]-[A-Za-z0-9-]{10,}\b/g },
    { id: 'stripe_secret_key', severity: 'high', re: /\b(sk|rk)_(live|test)_[A-Za-z0-9]{16,}\b/g },
    { id: 'openai_api_key', severity: 'high', re: /\bsk-(proj-)?[A-Za-z0-9_-]{20,}\b/g },
    { id: 'google_api_key', severity: 'high', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
    {
      id: 'private_key',
      severity: 'critical',
      re: /-----BEGIN (?:RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----/g,
    },
    {
      id: 'jwt',
      severity: 'medium',
      re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g,
    },
    {
      id: 'connection_string_password',
      severity: 'high',
      re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:[^\s@/]{3,}@[^\s/]+/gi,
    },
  ];
  const entropy = (s) => {
    const f = {};
    for (const c of s) f[c] = (f[c] || 0) + 1;
    return Object.keys(f).reduce((e, c) => e - (f[c] / s.length) * Math.log2(f[c] / s.length), 0);
  };
  const mask = (s) =>
    s.length <= 8 ? '****' : s.slice(0, 4) + '…' + s.slice(-2) + ' (' + s.length + ' chars)';
  const lines = params.text.split('\n');
  const findings = [];
  lines.forEach((line, n) => {
    const taken = [];
    for (const rule of RULES) {
      rule.re.lastIndex = 0;
      let m;
      while ((m = rule.re.exec(line))) {
        taken.push([m.index, m.index + m[0].length]);
        findings.push({
          rule: rule.id,
          severity: rule.severity,
          line: n + 1,
          column: m.index + 1,
          match: mask(m[0]),
        });
      }
    }
    const generic =
      /\b([A-Za-z_][A-Za-z0-9_]*(?:secret|password|passwd|token|api_?key|apikey)[A-Za-z0-9_]*)\s*[:=]\s*["']?([^\s"',;]{8,})/gi;
    let g;
    while ((g = generic.exec(line))) {
      const start = g.index + g[0].length - g[2].length;
      if (taken.some((t) => start < t[1] && start + g[2].length > t[0])) continue;
      const e = entropy(g[2]);
      if (e >= (params.minEntropy || 3.5)) {
        findings.push({
          rule: 'generic_secret_assignment',
          severity: 'medium',
          line: n + 1,
          column: start + 1,
          name: g[1],
          match: mask(g[2]),
          entropy: Math.round(e * 100) / 100,
        });
      }
    }
  });
  const order = { critical: 0, high: 1, medium: 2 };
  findings.sort((a, b) => order[a.severity] - order[b.severity] || a.line - b.line || a.column - b.column);
  return { clean: findings.length === 0, count: findings.length, findings };
}
