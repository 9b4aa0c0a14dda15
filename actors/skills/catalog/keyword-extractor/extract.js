/**
 * Keywords of each document by TF-IDF over the given collection (smoothed IDF, sublinear TF),
 * with bigrams of content words; stop words and numbers removed.
 */
function run(params) {
  const STOP = {};
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves also new one two may use used using many much like get got'
  )
    .split(' ')
    .forEach((w) => (STOP[w] = true));
  const terms = (text) => {
    const out = [];
    // Phrases do not cross sentence or clause boundaries.
    for (const clause of text.toLowerCase().split(/[.!?;:,()\n]+/)) {
      const words = (clause.match(/[a-z][a-z0-9'-]*[a-z0-9]|[a-z]/g) || []).map((w) => w.replace(/'s$/, ''));
      for (let i = 0; i < words.length; i++) {
        const w = words[i];
        if (STOP[w] || w.length < 3) continue;
        out.push(w);
        const next = words[i + 1];
        if (params.bigrams !== false && next && !STOP[next] && next.length >= 3) out.push(w + ' ' + next);
      }
    }
    return out;
  };
  const docs = params.documents.map(terms);
  const df = {};
  for (const d of docs) {
    const seen = {};
    for (const t of d)
      if (!seen[t]) {
        seen[t] = true;
        df[t] = (df[t] || 0) + 1;
      }
  }
  const n = docs.length;
  const top = params.top || 5;
  return {
    documents: docs.map((d, index) => {
      const tf = {};
      for (const t of d) tf[t] = (tf[t] || 0) + 1;
      const scored = Object.keys(tf).map((t) => {
        const idf = Math.log((1 + n) / (1 + df[t])) + 1;
        const weight = (1 + Math.log(tf[t])) * idf * (t.indexOf(' ') > 0 ? 1.2 : 1);
        return { term: t, score: Math.round(weight * 1000) / 1000, count: tf[t] };
      });
      scored.sort((a, b) => b.score - a.score || (a.term < b.term ? -1 : 1));
      const chosen = [];
      for (const s of scored) {
        if (chosen.length >= top) break;
        if (chosen.some((c) => c.term.indexOf(s.term) >= 0 || s.term.indexOf(c.term) >= 0)) continue;
        chosen.push(s);
      }
      return { index, keywords: chosen };
    }),
  };
}
