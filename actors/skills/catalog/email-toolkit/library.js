/** Email address syntax (a practical subset of RFC 5322: dot-atom local parts, DNS domains). */
function library() {
  const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
  const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
  const DISPOSABLE = [
    'mailinator.com',
    'guerrillamail.com',
    '10minutemail.com',
    'tempmail.com',
    'yopmail.com',
    'trashmail.com',
  ];
  const ROLES = [
    'admin',
    'info',
    'support',
    'sales',
    'contact',
    'noreply',
    'no-reply',
    'postmaster',
    'billing',
    'help',
  ];
  function check(address) {
    const email = String(address).trim();
    const at = email.lastIndexOf('@');
    const result = { input: String(address), valid: false };
    if (at < 1 || at === email.length - 1) return Object.assign(result, { reason: 'missing_at_or_part' });
    const local = email.slice(0, at);
    const domain = email
      .slice(at + 1)
      .toLowerCase()
      .replace(/\.$/, '');
    if (local.length > 64) return Object.assign(result, { reason: 'local_part_too_long' });
    if (!LOCAL.test(local)) return Object.assign(result, { reason: 'bad_local_part' });
    const labels = domain.split('.');
    if (domain.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l))) {
      return Object.assign(result, { reason: 'bad_domain' });
    }
    if (!/^[a-z]{2,63}$/.test(labels[labels.length - 1]) && !/^xn--/.test(labels[labels.length - 1])) {
      return Object.assign(result, { reason: 'bad_top_level_domain' });
    }
    return Object.assign(result, {
      valid: true,
      normalized: local + '@' + domain,
      local,
      domain,
      role: ROLES.indexOf(local.toLowerCase()) >= 0,
      disposable: DISPOSABLE.indexOf(domain) >= 0,
    });
  }
  return { check };
}
