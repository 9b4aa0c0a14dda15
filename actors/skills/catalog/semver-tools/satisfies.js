/** Which versions satisfy an npm-style range (^, ~, x, hyphen ranges, comparators, ||), and the highest that does. */
function run(params) {
  const results = params.versions.map((s) => ({ version: s, satisfies: lib.satisfies(s, params.range) }));
  const ok = results
    .filter((r) => r.satisfies)
    .map((r) => r.version)
    .sort((a, b) => lib.compare(a, b));
  return { range: params.range, results, maxSatisfying: ok.length ? ok[ok.length - 1] : null };
}
