/** Dates without a locale library: ISO 8601, a few written forms, calendar checks, UTC arithmetic. */
function library() {
  const MONTHS = [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ];
  const monthIndex = (name) => MONTHS.findIndex((m) => m.startsWith(name.toLowerCase().slice(0, 3)));
  const daysIn = (y, m) => new Date(Date.UTC(y, m, 0)).getUTCDate();
  function make(y, m, d, text, format) {
    if (m < 1 || m > 12) return { text, valid: false, reason: 'bad_month' };
    if (d < 1 || d > daysIn(y, m))
      return { text, valid: false, reason: 'bad_day', daysInMonth: daysIn(y, m) };
    const iso =
      String(y).padStart(4, '0') + '-' + String(m).padStart(2, '0') + '-' + String(d).padStart(2, '0');
    const weekday = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][
      new Date(Date.UTC(y, m - 1, d)).getUTCDay()
    ];
    return { text, valid: true, iso, format, weekday };
  }
  const PATTERNS = [
    {
      format: 'iso',
      re: /\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?\b/g,
      get: (m) => [+m[1], +m[2], +m[3]],
    },
    { format: 'dmy', re: /\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b/g, get: (m) => [+m[3], +m[2], +m[1]] },
    { format: 'mdy', re: /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g, get: (m) => [+m[3], +m[1], +m[2]] },
    {
      format: 'day month year',
      re: /\b(\d{1,2})(?:st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?\s+(\d{4})\b/gi,
      get: (m) => [+m[3], monthIndex(m[2]) + 1, +m[1]],
    },
    {
      format: 'month day year',
      re: /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/gi,
      get: (m) => [+m[3], monthIndex(m[1]) + 1, +m[2]],
    },
  ];
  function extract(text, numeric) {
    const found = [];
    const taken = [];
    for (const p of PATTERNS) {
      if ((p.format === 'dmy' && numeric === 'mdy') || (p.format === 'mdy' && numeric !== 'mdy')) continue;
      p.re.lastIndex = 0;
      let m;
      while ((m = p.re.exec(text))) {
        const start = m.index;
        const end = start + m[0].length;
        if (taken.some((t) => start < t[1] && end > t[0])) continue;
        taken.push([start, end]);
        const [y, mo, d] = p.get(m);
        const r = make(y, mo, d, m[0], p.format);
        r.index = start;
        if (p.format === 'iso' && m[4] !== undefined)
          r.time = m[4] + ':' + m[5] + (m[6] ? ':' + m[6] : '') + (m[7] || '');
        found.push(r);
      }
    }
    return found.sort((a, b) => a.index - b.index);
  }
  function parseIso(text) {
    const t = new Date(text);
    if (isNaN(t.getTime())) throw new Error('Not an ISO 8601 date: ' + text);
    return t;
  }
  return { extract, make, parseIso, daysIn };
}
