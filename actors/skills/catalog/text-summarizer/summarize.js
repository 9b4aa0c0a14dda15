/**
 * Extractive summary: sentences scored by the frequency of their content words (stop words
 * removed, normalised by sentence length, a bonus for the opening sentence), the best ones kept
 * in their original order.
 */
function run(params) {
  const STOP = (
    'a an and are as at be been but by for from had has have he her his i if in into is it its me my no not of on ' +
    'or our she so than that the their them then there these they this to too us was we were what when which who will with ' +
    'you your can could would should do does did about after all also any because before both each few more most other ' +
    'over same some such only own very just than those through under until up while'
  ).split(' ');
  const stop = {};
  for (const w of STOP) stop[w] = true;
  const text = params.text.replace(/\s+/g, ' ').trim();
  const sentences = text.split(/(?<=[.!?])\s+(?=[A-Z0-9"'“(])/).filter((s) => /[A-Za-z]/.test(s));
  const tokens = (s) =>
    (s.toLowerCase().match(/[a-z0-9\u00e0-\u024f]+/g) || []).filter((w) => !stop[w] && w.length > 2);
  const freq = {};
  for (const s of sentences) for (const w of tokens(s)) freq[w] = (freq[w] || 0) + 1;
  const max = Math.max.apply(null, [1].concat(Object.keys(freq).map((k) => freq[k])));
  const scored = sentences.map((s, index) => {
    const t = tokens(s);
    const score = t.length === 0 ? 0 : t.reduce((a, w) => a + freq[w] / max, 0) / Math.sqrt(t.length);
    return { index, sentence: s, score: score + (index === 0 ? 0.25 : 0) };
  });
  const count = Math.min(params.sentences || 3, sentences.length);
  const chosen = scored
    .slice()
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, count)
    .sort((a, b) => a.index - b.index);
  const keywords = Object.keys(freq)
    .sort((a, b) => freq[b] - freq[a] || (a < b ? -1 : 1))
    .slice(0, 5);
  return {
    summary: chosen.map((c) => c.sentence).join(' '),
    sentences: chosen.map((c) => ({
      index: c.index,
      text: c.sentence,
      score: Math.round(c.score * 1000) / 1000,
    })),
    keywords,
    compression: sentences.length ? Math.round((count / sentences.length) * 100) / 100 : 0,
  };
}
