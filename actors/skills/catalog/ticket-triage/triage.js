/**
 * Classifies a support ticket by weighted keywords: category (billing, outage, bug, account,
 * security, feature request, how-to), priority from impact and urgency signals, sentiment
 * markers and a suggested queue; explains the signals it found.
 */
function run(params) {
  const text = (params.subject + '\n' + params.body).toLowerCase();
  const CATEGORIES = {
    security: [
      'hacked',
      'breach',
      'phishing',
      'unauthorized',
      'suspicious login',
      'leaked',
      'vulnerability',
      '2fa',
    ],
    outage: [
      'down',
      'outage',
      'not loading',
      'unavailable',
      '500 error',
      '503',
      'cannot connect',
      'timeout',
      'all users',
    ],
    billing: [
      'invoice',
      'charge',
      'charged',
      'refund',
      'payment',
      'billing',
      'subscription',
      'credit card',
      'receipt',
    ],
    account: [
      'password',
      'login',
      'log in',
      'sign in',
      'locked out',
      'email change',
      'delete my account',
      'username',
    ],
    bug: [
      'bug',
      'error',
      'crash',
      'broken',
      'exception',
      'does not work',
      "doesn't work",
      'wrong result',
      'glitch',
    ],
    feature_request: [
      'feature request',
      'would be nice',
      'please add',
      'could you add',
      'wish',
      'suggestion',
      'roadmap',
    ],
    how_to: ['how do i', 'how to', 'where can i', 'is it possible', 'documentation', 'tutorial', 'example'],
  };
  const QUEUES = {
    security: 'security-oncall',
    outage: 'sre-oncall',
    billing: 'billing',
    account: 'account-support',
    bug: 'engineering-triage',
    feature_request: 'product',
    how_to: 'tier-1',
  };
  const scores = {};
  const signals = [];
  for (const category of Object.keys(CATEGORIES)) {
    for (const k of CATEGORIES[category]) {
      const count = text.split(k).length - 1;
      if (count > 0) {
        scores[category] =
          (scores[category] || 0) + count * (params.subject.toLowerCase().indexOf(k) >= 0 ? 2 : 1);
        signals.push(category + ': "' + k + '"');
      }
    }
  }
  const ranked = Object.keys(scores).sort((a, b) => scores[b] - scores[a] || (a < b ? -1 : 1));
  const category = ranked[0] || 'other';
  const urgent = ['urgent', 'asap', 'immediately', 'critical', 'emergency', 'production', 'right now'].filter(
    (w) => text.indexOf(w) >= 0,
  );
  const wide = ['all users', 'everyone', 'entire team', 'every customer', 'whole company'].filter(
    (w) => text.indexOf(w) >= 0,
  );
  const angry = ['unacceptable', 'furious', 'terrible', 'worst', 'cancel my', 'lawyer'].filter(
    (w) => text.indexOf(w) >= 0,
  );
  let level = {
    security: 3,
    outage: 3,
    billing: 1,
    account: 1,
    bug: 1,
    feature_request: 0,
    how_to: 0,
    other: 0,
  }[category];
  level += urgent.length > 0 ? 1 : 0;
  level += wide.length > 0 ? 1 : 0;
  if (params.customerTier === 'enterprise') level += 1;
  const priority = ['low', 'normal', 'high', 'urgent'][Math.min(3, level)];
  for (const w of urgent) signals.push('urgency: "' + w + '"');
  for (const w of wide) signals.push('impact: "' + w + '"');
  for (const w of angry) signals.push('frustration: "' + w + '"');
  return {
    category,
    alternatives: ranked.slice(1, 3),
    priority,
    queue: QUEUES[category] || 'tier-1',
    frustrated: angry.length > 0,
    confidence:
      ranked.length === 0
        ? 0
        : Math.round((scores[category] / ranked.reduce((s, c) => s + scores[c], 0)) * 100) / 100,
    signals,
  };
}
