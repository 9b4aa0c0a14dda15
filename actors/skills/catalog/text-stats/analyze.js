/** Counts, reading time, readability and the most frequent words of a text. */
function run(params) {
  return lib.analyze(params.text, { top: params.top, minWordLength: params.minWordLength });
}
