/**
 * Ranks canned responses for a customer message by cosine similarity of word stems (a light
 * suffix stripper, stop words removed), fills their {{placeholders}} from the given values.
 */
function run(params) {
  const STOP = {};
  'a an and are as at be but by for from have i if in is it its my me not of on or our so that the this to was we with you your can do does how what when why'
    .split(' ')
    .forEach((w) => (STOP[w] = true));
  const stem = (w) => w.replace(/(ing|ed|es|s|ly|ment)$/, '');
  const vector = (t) => {
    const v = {};
    for (const w of t.toLowerCase().match(/[a-z0-9]+/g) || []) {
      if (STOP[w] || w.length < 2) continue;
      const s = stem(w);
      v[s] = (v[s] || 0) + 1;
    }
    return v;
  };
  const cosine = (a, b) => {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (const k in a) {
      na += a[k] * a[k];
      if (b[k]) dot += a[k] * b[k];
    }
    for (const k in b) nb += b[k] * b[k];
    return na && nb ? dot / Math.sqrt(na * nb) : 0;
  };
  const message = vector(params.message);
  const fill = (text) =>
    text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name) =>
      params.values && params.values[name] !== undefined ? String(params.values[name]) : m,
    );
  const ranked = params.responses
    .map((r) => ({
      id: r.id,
      title: r.title,
      score: cosine(message, vector(r.title + ' ' + (r.keywords || []).join(' ') + ' ' + r.text)),
      text: r.text,
    }))
    .filter((r) => r.score >= (params.minScore || 0.1))
    .sort((a, b) => b.score - a.score)
    .slice(0, params.top || 3)
    .map((r) => ({
      id: r.id,
      title: r.title,
      score: Math.round(r.score * 1000) / 1000,
      reply: fill(r.text),
    }));
  return { suggestions: ranked, matched: ranked.length > 0 };
}
