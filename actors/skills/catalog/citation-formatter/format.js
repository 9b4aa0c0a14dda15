/** Formats references in APA 7, MLA 9 or Chicago (author-date) style, sorted as a bibliography. */
function run(params) {
  const style = params.style || 'apa';
  const initials = (given) =>
    given
      .split(/[\s-]+/)
      .filter(Boolean)
      .map((g) => g[0].toUpperCase() + '.')
      .join(' ');
  const apaAuthors = (authors) => {
    const names = authors.map((a) => a.family + (a.given ? ', ' + initials(a.given) : ''));
    if (names.length === 1) return names[0];
    if (names.length <= 20) return names.slice(0, -1).join(', ') + ', & ' + names[names.length - 1];
    return names.slice(0, 19).join(', ') + ', … ' + names[names.length - 1];
  };
  const mlaAuthors = (authors) => {
    const first = authors[0].family + (authors[0].given ? ', ' + authors[0].given : '');
    if (authors.length === 1) return first;
    if (authors.length === 2)
      return first + ', and ' + [authors[1].given, authors[1].family].filter(Boolean).join(' ');
    return first + ', et al';
  };
  const chicagoAuthors = (authors) => {
    const rest = authors.slice(1).map((a) => [a.given, a.family].filter(Boolean).join(' '));
    const first = authors[0].family + (authors[0].given ? ', ' + authors[0].given : '');
    if (rest.length === 0) return first;
    return (
      first +
      ', ' +
      (rest.length > 1 ? rest.slice(0, -1).join(', ') + ', and ' : 'and ') +
      rest[rest.length - 1]
    );
  };
  const end = (s) => (/[.?!]$/.test(s) ? s : s + '.');
  const format = (r) => {
    const authors = r.authors && r.authors.length ? r.authors : [{ family: r.organization || 'Anonymous' }];
    const pages = r.pages ? r.pages.replace('-', '–') : null;
    if (style === 'apa') {
      let s = apaAuthors(authors) + ' (' + (r.year || 'n.d.') + '). ';
      if (r.type === 'article') {
        s += end(r.title) + ' _' + r.container + '_';
        if (r.volume) s += ', _' + r.volume + '_';
        if (r.issue) s += '(' + r.issue + ')';
        if (pages) s += ', ' + pages;
        s += '.';
      } else if (r.type === 'book') {
        s += '_' + end(r.title) + '_' + (r.publisher ? ' ' + end(r.publisher) : '');
      } else {
        s += end(r.title) + (r.container ? ' ' + end(r.container) : '');
      }
      if (r.doi) s += ' https://doi.org/' + r.doi;
      else if (r.url) s += ' ' + r.url;
      return s;
    }
    if (style === 'mla') {
      let s = end(mlaAuthors(authors)) + ' ';
      if (r.type === 'book')
        s += '_' + r.title + '_. ' + (r.publisher ? r.publisher + ', ' : '') + (r.year || 'n.d.') + '.';
      else {
        s += '"' + end(r.title) + '" _' + (r.container || '') + '_';
        if (r.volume) s += ', vol. ' + r.volume;
        if (r.issue) s += ', no. ' + r.issue;
        s += ', ' + (r.year || 'n.d.');
        if (pages) s += ', pp. ' + pages;
        s += '.';
      }
      if (r.doi) s += ' https://doi.org/' + r.doi + '.';
      return s;
    }
    let s = end(chicagoAuthors(authors)) + ' ' + (r.year || 'n.d.') + '. ';
    if (r.type === 'book') s += '_' + end(r.title) + '_' + (r.publisher ? ' ' + end(r.publisher) : '');
    else {
      s += '"' + end(r.title) + '" _' + (r.container || '') + '_';
      if (r.volume) s += ' ' + r.volume;
      if (r.issue) s += ' (' + r.issue + ')';
      if (pages) s += ': ' + pages;
      s += '.';
    }
    if (r.doi) s += ' https://doi.org/' + r.doi + '.';
    return s;
  };
  const key = (r) =>
    ((r.authors && r.authors[0] && r.authors[0].family) || r.organization || '').toLowerCase() +
    ' ' +
    (r.year || '');
  const sorted =
    params.sort === false
      ? params.references
      : params.references.slice().sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return { style, entries: sorted.map(format) };
}
