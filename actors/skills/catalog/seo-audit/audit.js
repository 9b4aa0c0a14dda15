/**
 * Audits a page for search engines with the HTML Extractor library (required): title and
 * description lengths, one h1 and ordered headings, alt texts, canonical and language, link
 * counts; and, with Text Statistics (optional), thin content and readability. A score out of 100.
 */
function run(params) {
  const page = deps['html-extractor'].parse(params.html, params.url);
  const checks = [];
  const add = (id, ok, weight, detail) => checks.push({ id, ok, weight, detail });
  const title = page.title || '';
  add('title_present', title.length > 0, 15, title ? title : 'no <title>');
  add(
    'title_length',
    title.length >= 15 && title.length <= 60,
    5,
    title.length + ' characters (15-60 advised)',
  );
  const description = page.meta.description || '';
  add(
    'meta_description',
    description.length >= 50 && description.length <= 160,
    10,
    description ? description.length + ' characters (50-160 advised)' : 'no meta description',
  );
  const h1 = page.headings.filter((h) => h.level === 1);
  add('single_h1', h1.length === 1, 10, h1.length + ' h1 heading(s)');
  let skipped = null;
  page.headings.forEach((h, i) => {
    if (i > 0 && h.level > page.headings[i - 1].level + 1 && !skipped)
      skipped = 'h' + page.headings[i - 1].level + ' followed by h' + h.level;
  });
  add('heading_order', skipped === null, 5, skipped || 'headings in order');
  const noAlt = page.images.filter((i) => !i.alt);
  add(
    'image_alt',
    noAlt.length === 0,
    10,
    noAlt.length + ' of ' + page.images.length + ' images without alt text',
  );
  add('canonical', !!page.canonical, 5, page.canonical || 'no canonical link');
  add('lang', !!page.lang, 5, page.lang || 'no lang attribute');
  add('viewport', !!page.meta.viewport, 5, page.meta.viewport || 'no viewport meta (mobile)');
  add('indexable', !/noindex/i.test(page.meta.robots || ''), 10, page.meta.robots || 'no robots meta');
  const host = (u) => ((/^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(u || '') || [])[1] || '').toLowerCase();
  const internal = page.links.filter((l) => host(l.href) === host(params.url)).length;
  add(
    'internal_links',
    internal > 0,
    5,
    internal + ' internal, ' + (page.links.length - internal) + ' external links',
  );
  let stats = null;
  if (deps['text-stats']) {
    stats = deps['text-stats'].analyze(page.text, { top: 5 });
    add('content_length', stats.words >= (params.minWords || 300), 10, stats.words + ' words');
    add(
      'readability',
      stats.fleschReadingEase === null || stats.fleschReadingEase >= 50,
      5,
      'Flesch reading ease ' + stats.fleschReadingEase,
    );
  }
  const total = checks.reduce((s, c) => s + c.weight, 0);
  const score = Math.round((checks.filter((c) => c.ok).reduce((s, c) => s + c.weight, 0) / total) * 100);
  return {
    url: params.url,
    score,
    passed: checks.filter((c) => c.ok).length,
    failed: checks.filter((c) => !c.ok).map((c) => ({ id: c.id, detail: c.detail })),
    checks: checks.map((c) => ({ id: c.id, ok: c.ok, detail: c.detail })),
    words: stats ? stats.words : null,
    topWords: stats ? stats.topWords : null,
  };
}
