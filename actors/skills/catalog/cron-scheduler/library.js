/**
 * Cron expressions: five fields (minute hour day-of-month month day-of-week) with lists, ranges,
 * steps, names (jan-dec, sun-sat), `?`, `L` not supported; macros @hourly @daily @weekly
 * @monthly @yearly. Day-of-month and day-of-week follow Vixie cron: when both are restricted, a
 * day matches either. Times are UTC.
 */
function library() {
  const MACROS = {
    '@yearly': '0 0 1 1 *',
    '@annually': '0 0 1 1 *',
    '@monthly': '0 0 1 * *',
    '@weekly': '0 0 * * 0',
    '@daily': '0 0 * * *',
    '@midnight': '0 0 * * *',
    '@hourly': '0 * * * *',
  };
  const FIELDS = [
    { name: 'minute', min: 0, max: 59 },
    { name: 'hour', min: 0, max: 23 },
    { name: 'dayOfMonth', min: 1, max: 31 },
    {
      name: 'month',
      min: 1,
      max: 12,
      names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
    },
    { name: 'dayOfWeek', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
  ];
  function value(text, field) {
    const lower = text.toLowerCase();
    if (field.names && field.names.indexOf(lower) >= 0)
      return field.names.indexOf(lower) + (field.name === 'month' ? 1 : 0);
    if (!/^\d+$/.test(text)) throw new Error('Bad value "' + text + '" in ' + field.name);
    const v = Number(text);
    if (v < field.min || v > field.max)
      throw new Error(field.name + ' must be ' + field.min + '-' + field.max + ', got ' + v);
    return v;
  }
  function parseField(text, field) {
    const set = {};
    for (const part of text.split(',')) {
      const m = /^(\*|\?|[^/-]+)(?:-([^/]+))?(?:\/(\d+))?$/.exec(part);
      if (!m) throw new Error('Bad ' + field.name + ' field: ' + part);
      const step = m[3] ? Number(m[3]) : 1;
      if (step < 1) throw new Error('Step must be at least 1 in ' + field.name);
      let from;
      let to;
      if (m[1] === '*' || m[1] === '?') {
        from = field.min;
        to = field.max;
      } else {
        from = value(m[1], field);
        to = m[2] !== undefined ? value(m[2], field) : m[3] ? field.max : from;
      }
      if (to < from) throw new Error('Range ' + part + ' goes backwards in ' + field.name);
      for (let v = from; v <= to; v += step) set[field.name === 'dayOfWeek' && v === 7 ? 0 : v] = true;
    }
    return set;
  }
  function parse(expression) {
    const source = MACROS[expression.trim().toLowerCase()] || expression.trim();
    const parts = source.split(/\s+/);
    if (parts.length !== 5)
      throw new Error('A cron expression has 5 fields (minute hour day month weekday), got ' + parts.length);
    const fields = {};
    FIELDS.forEach((f, i) => (fields[f.name] = parseField(parts[i], f)));
    fields.domRestricted = parts[2] !== '*' && parts[2] !== '?';
    fields.dowRestricted = parts[4] !== '*' && parts[4] !== '?';
    return fields;
  }
  function dayMatches(c, d) {
    const dom = !!c.dayOfMonth[d.getUTCDate()];
    const dow = !!c.dayOfWeek[d.getUTCDay()];
    if (c.domRestricted && c.dowRestricted) return dom || dow;
    return dom && dow;
  }
  function next(c, after, count) {
    const out = [];
    const d = new Date(Math.floor(after.getTime() / 60000) * 60000 + 60000);
    const limit = after.getTime() + 5 * 366 * 24 * 3600 * 1000;
    while (out.length < count && d.getTime() <= limit) {
      if (!c.month[d.getUTCMonth() + 1]) {
        d.setUTCMonth(d.getUTCMonth() + 1, 1);
        d.setUTCHours(0, 0, 0, 0);
        continue;
      }
      if (!dayMatches(c, d)) {
        d.setUTCDate(d.getUTCDate() + 1);
        d.setUTCHours(0, 0, 0, 0);
        continue;
      }
      if (!c.hour[d.getUTCHours()]) {
        d.setUTCHours(d.getUTCHours() + 1, 0, 0, 0);
        continue;
      }
      if (!c.minute[d.getUTCMinutes()]) {
        d.setUTCMinutes(d.getUTCMinutes() + 1, 0, 0);
        continue;
      }
      out.push(d.toISOString());
      d.setUTCMinutes(d.getUTCMinutes() + 1, 0, 0);
    }
    return out;
  }
  function describe(expression) {
    const parts = (MACROS[expression.trim().toLowerCase()] || expression.trim()).split(/\s+/);
    const [mi, h, dom, mo, dow] = parts;
    const bits = [];
    if (/^\d+$/.test(mi) && /^\d+$/.test(h))
      bits.push('at ' + (h.length < 2 ? '0' : '') + h + ':' + (mi.length < 2 ? '0' : '') + mi + ' UTC');
    else {
      bits.push(
        mi === '*'
          ? 'every minute'
          : /^\*\/\d+$/.test(mi)
            ? 'every ' + mi.slice(2) + ' minutes'
            : 'at minute ' + mi,
      );
      if (h !== '*') bits.push(/^\*\/\d+$/.test(h) ? 'every ' + h.slice(2) + ' hours' : 'during hour ' + h);
    }
    if (dom !== '*' && dom !== '?') bits.push('on day ' + dom + ' of the month');
    if (mo !== '*') bits.push('in month ' + mo);
    if (dow !== '*' && dow !== '?') bits.push('on weekday ' + dow + ' (0 = Sunday)');
    return bits.join(', ');
  }
  return { parse, next, describe };
}
