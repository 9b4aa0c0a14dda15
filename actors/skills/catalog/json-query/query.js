/** Evaluates a JSONPath expression against a JSON document: every match, in document order. */
function run(params) {
  const data = params.data !== undefined ? params.data : JSON.parse(params.json);
  const matches = lib.query(data, params.path);
  return { path: params.path, count: matches.length, matches: params.first ? matches.slice(0, 1) : matches };
}
