/**
 * Text statistics: words, sentences, syllables (an English vowel-group heuristic), reading time
 * at 230 words a minute and the Flesch reading ease.
 */
function library() {
  function words(text) {
    return text.match(/[A-Za-z\u00C0-\u024F0-9]+(?:['’-][A-Za-z\u00C0-\u024F0-9]+)*/g) || [];
  }
  function sentences(text) {
    return text
      .replace(/\s+/g, ' ')
      .split(/(?<=[.!?])\s+(?=[A-Z0-9"'“(])/)
      .map((s) => s.trim())
      .filter((s) => /[A-Za-z0-9]/.test(s));
  }
  function syllables(word) {
    const w = word.toLowerCase().replace(/[^a-z]/g, '');
    if (w.length === 0) return 0;
    if (w.length <= 3) return 1;
    const trimmed = w.replace(/(?:[^laeiouy]es|ed|[^laeiouy]e)$/, '').replace(/^y/, '');
    const groups = trimmed.match(/[aeiouy]{1,2}/g);
    return Math.max(1, groups ? groups.length : 1);
  }
  function analyze(text, options) {
    const list = words(text);
    const sentenceList = sentences(text);
    const syllableCount = list.reduce((a, w) => a + syllables(w), 0);
    const wordCount = list.length;
    const sentenceCount = Math.max(sentenceList.length, wordCount > 0 ? 1 : 0);
    const round = (x, d) => Math.round(x * Math.pow(10, d)) / Math.pow(10, d);
    const frequency = {};
    for (const w of list) {
      const k = w.toLowerCase();
      if (k.length >= ((options && options.minWordLength) || 4)) frequency[k] = (frequency[k] || 0) + 1;
    }
    const top = Object.keys(frequency)
      .map((k) => ({ word: k, count: frequency[k] }))
      .sort((a, b) => b.count - a.count || (a.word < b.word ? -1 : 1))
      .slice(0, (options && options.top) || 10);
    return {
      characters: text.length,
      charactersNoSpaces: text.replace(/\s/g, '').length,
      words: wordCount,
      uniqueWords: Object.keys(list.reduce((o, w) => ((o[w.toLowerCase()] = 1), o), {})).length,
      sentences: sentenceCount,
      paragraphs: text.split(/\n\s*\n/).filter((p) => p.trim()).length,
      syllables: syllableCount,
      averageWordsPerSentence: sentenceCount ? round(wordCount / sentenceCount, 2) : 0,
      readingTimeSeconds: Math.ceil((wordCount / 230) * 60),
      fleschReadingEase:
        wordCount && sentenceCount
          ? round(206.835 - 1.015 * (wordCount / sentenceCount) - 84.6 * (syllableCount / wordCount), 1)
          : null,
      topWords: top,
    };
  }
  return { words, sentences, syllables, analyze };
}
