/** Title, language, meta tags, canonical URL, headings, links (absolute with baseUrl), images and visible text of an HTML page. */
function run(params) {
  const page = lib.parse(params.html, params.baseUrl);
  const max = params.maxTextChars === undefined ? 5000 : params.maxTextChars;
  const host = (u) => ((/^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(u || '') || [])[1] || '').toLowerCase();
  const own = host(params.baseUrl);
  return {
    title: page.title,
    lang: page.lang,
    description: page.meta.description || page.meta['og:description'] || null,
    meta: page.meta,
    canonical: page.canonical,
    headings: page.headings,
    links: page.links.map((l) =>
      Object.assign(l, { external: own ? host(l.href) !== '' && host(l.href) !== own : null }),
    ),
    images: page.images,
    text: page.text.length > max ? page.text.slice(0, max) + '…' : page.text,
    textLength: page.text.length,
  };
}
