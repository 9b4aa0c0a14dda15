/** Semantic versions (semver 2.0.0): parse, compare with pre-release precedence, npm-style ranges. */
function library() {
  const RE =
    /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;
  function parse(v) {
    const m = RE.exec(String(v).trim());
    if (!m) throw new Error('Not a semantic version: ' + v);
    return {
      major: +m[1],
      minor: +m[2],
      patch: +m[3],
      pre: m[4] ? m[4].split('.') : [],
      build: m[5] || null,
    };
  }
  function cmpPre(a, b) {
    if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length === 0 ? 1 : -1;
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] === undefined) return -1;
      if (b[i] === undefined) return 1;
      const na = /^\d+$/.test(a[i]);
      const nb = /^\d+$/.test(b[i]);
      if (na && nb && +a[i] !== +b[i]) return +a[i] < +b[i] ? -1 : 1;
      if (na !== nb) return na ? -1 : 1;
      if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    }
    return 0;
  }
  function compare(x, y) {
    const a = typeof x === 'string' ? parse(x) : x;
    const b = typeof y === 'string' ? parse(y) : y;
    for (const k of ['major', 'minor', 'patch']) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
    return cmpPre(a.pre, b.pre);
  }
  function format(v) {
    return v.major + '.' + v.minor + '.' + v.patch + (v.pre.length ? '-' + v.pre.join('.') : '');
  }
  function partial(text) {
    const parts = text.replace(/^v/, '').split('.');
    const nums = parts.map((p) => (p === 'x' || p === 'X' || p === '*' ? null : p));
    return nums;
  }
  function comparators(range) {
    const out = [];
    const tokens = range
      .trim()
      .replace(/\s*-\s+/g, ' - ')
      .split(/\s+/);
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t === '' || t === '*' || t === 'x') continue;
      if (tokens[i + 1] === '-') {
        out.push(['>=', parse(fill(partial(t), 0))]);
        const hi = partial(tokens[i + 2]);
        if (hi.length === 3 && hi.every((x) => x !== null)) out.push(['<=', parse(hi.join('.'))]);
        else out.push(['<', bump(hi)]);
        i += 2;
        continue;
      }
      const m = /^(\^|~|>=|<=|>|<|=)?(.+)$/.exec(t);
      const op = m[1] || '';
      const p = partial(m[2]);
      const base = parse(
        fill(p, 0) + (m[2].indexOf('-') > 0 ? '-' + m[2].split('-').slice(1).join('-') : ''),
      );
      if (op === '^') {
        out.push(['>=', base]);
        out.push([
          '<',
          base.major > 0 || p.length < 2
            ? v(base.major + 1, 0, 0)
            : base.minor > 0 || p.length < 3
              ? v(0, base.minor + 1, 0)
              : v(0, 0, base.patch + 1),
        ]);
      } else if (op === '~') {
        out.push(['>=', base]);
        out.push([
          '<',
          p.length < 2 || p[1] === null ? v(base.major + 1, 0, 0) : v(base.major, base.minor + 1, 0),
        ]);
      } else if ((op === '' || op === '=') && p.some((x) => x === null || x === undefined)) {
        out.push(['>=', base]);
        out.push(['<', bump(p)]);
      } else {
        out.push([op || '=', base]);
      }
    }
    return out;
  }
  const v = (major, minor, patch) => ({ major, minor, patch, pre: [], build: null });
  function fill(p, z) {
    return [0, 1, 2].map((i) => (p[i] === null || p[i] === undefined ? z : p[i])).join('.');
  }
  function bump(p) {
    if (p[0] === null || p[0] === undefined) return v(Infinity, 0, 0);
    if (p[1] === null || p[1] === undefined) return v(+p[0] + 1, 0, 0);
    return v(+p[0], +p[1] + 1, 0);
  }
  function test(version, c) {
    const r = compare(version, c[1]);
    return c[0] === '>='
      ? r >= 0
      : c[0] === '<='
        ? r <= 0
        : c[0] === '>'
          ? r > 0
          : c[0] === '<'
            ? r < 0
            : r === 0;
  }
  function satisfies(version, range) {
    const ver = parse(version);
    return range.split('||').some((alt) => {
      const cs = comparators(alt);
      if (!cs.every((c) => test(ver, c))) return false;
      if (ver.pre.length === 0) return true;
      return cs.some(
        (c) =>
          c[1].pre.length > 0 &&
          c[1].major === ver.major &&
          c[1].minor === ver.minor &&
          c[1].patch === ver.patch,
      );
    });
  }
  return { parse, compare, format, satisfies };
}
