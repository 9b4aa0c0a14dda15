/**
 * A tolerant HTML reader (no DOM in the sandbox): the title, meta tags, headings, links, images
 * and the visible text, with entities decoded and script, style and comments skipped.
 */
function library() {
  const ENTITIES = {
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    apos: "'",
    nbsp: ' ',
    copy: '©',
    reg: '®',
    mdash: '—',
    ndash: '–',
    hellip: '…',
    laquo: '«',
    raquo: '»',
    euro: '€',
  };
  const decode = (s) =>
    s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e) => {
      if (e[0] === '#') {
        const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
      }
      const v = ENTITIES[e.toLowerCase()];
      return v === undefined ? m : v;
    });
  const clean = (s) =>
    decode(s.replace(/<[^>]*>/g, ' '))
      .replace(/\s+/g, ' ')
      .trim();
  function attrs(tag) {
    const out = {};
    const re = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
    let m;
    const body = tag.replace(/^<\s*[a-zA-Z0-9]+/, '').replace(/\/?>$/, '');
    while ((m = re.exec(body)))
      out[m[1].toLowerCase()] = decode(
        m[3] !== undefined ? m[3] : m[4] !== undefined ? m[4] : m[5] !== undefined ? m[5] : '',
      );
    return out;
  }
  function resolve(base, href) {
    if (!href || /^(javascript|data|vbscript):/i.test(href)) return null;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return href;
    if (!base) return href;
    const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(\/[^?#]*)?/i.exec(base);
    if (!m) return href;
    if (href.startsWith('//')) return base.split(':')[0] + ':' + href;
    if (href.startsWith('/')) return m[1] + href;
    if (href.startsWith('#') || href.startsWith('?')) return base.replace(/[#?].*$/, '') + href;
    const dir = (m[2] || '/').replace(/[^/]*$/, '');
    const parts = (dir + href).split('/');
    const out = [];
    for (const p of parts) {
      if (p === '..') {
        if (out.length > 1) out.pop();
      } else if (p !== '.') out.push(p);
    }
    return m[1] + out.join('/');
  }
  function parse(html, baseUrl) {
    const src = html
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, ' ');
    const title = (/<title[^>]*>([\s\S]*?)<\/title>/i.exec(src) || [])[1];
    const meta = {};
    for (const tag of src.match(/<meta\b[^>]*>/gi) || []) {
      const a = attrs(tag);
      const key = a.name || a.property || a['http-equiv'];
      if (key && a.content !== undefined) meta[key.toLowerCase()] = a.content;
      if (a.charset) meta.charset = a.charset;
    }
    const base = (/<base\b[^>]*href\s*=\s*["']([^"']+)["']/i.exec(src) || [])[1] || baseUrl || null;
    const canonicalTag = (src.match(/<link\b[^>]*>/gi) || [])
      .map(attrs)
      .find((a) => (a.rel || '').toLowerCase() === 'canonical');
    const headings = [];
    const hre = /<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi;
    let m;
    while ((m = hre.exec(src))) headings.push({ level: Number(m[1]), text: clean(m[2]) });
    const links = [];
    const are = /<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi;
    while ((m = are.exec(src))) {
      const a = attrs('<a ' + m[1] + '>');
      const href = resolve(base, a.href);
      if (!href) continue;
      links.push({ href, text: clean(m[2]), rel: a.rel || null, nofollow: /nofollow/i.test(a.rel || '') });
    }
    const images = (src.match(/<img\b[^>]*>/gi) || [])
      .map(attrs)
      .map((a) => ({ src: resolve(base, a.src), alt: a.alt === undefined ? null : a.alt }));
    const body = (/<body\b[^>]*>([\s\S]*)<\/body>/i.exec(src) || [null, src])[1];
    const text = decode(
      body.replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/tr)\b[^>]*>/gi, '\n').replace(/<[^>]*>/g, ' '),
    )
      .replace(/[ \t\f\v]+/g, ' ')
      .replace(/\s*\n\s*/g, '\n')
      .trim();
    const lang = (/<html\b[^>]*\blang\s*=\s*["']?([a-zA-Z-]+)/i.exec(src) || [])[1] || null;
    return {
      title: title === undefined ? null : clean(title),
      lang,
      meta,
      canonical: canonicalTag ? resolve(base, canonicalTag.href) : null,
      headings,
      links,
      images,
      text,
    };
  }
  return { parse, resolve, decode };
}
