/** Sorts versions by semver precedence and reports the latest and the latest stable one. */
function run(params) {
  const parsed = params.versions.map((s) => ({ s, v: lib.parse(s) }));
  parsed.sort((a, b) => lib.compare(a.v, b.v) || (a.s < b.s ? -1 : 1));
  const stable = parsed.filter((p) => p.v.pre.length === 0);
  return {
    sorted: parsed.map((p) => p.s),
    latest: parsed[parsed.length - 1].s,
    latestStable: stable.length ? stable[stable.length - 1].s : null,
  };
}
