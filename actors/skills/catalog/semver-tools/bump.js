/** The next version for a release type: major, minor, patch, or prerelease (with an identifier such as rc). */
function run(params) {
  const v = lib.parse(params.version);
  const next = { major: v.major, minor: v.minor, patch: v.patch, pre: [] };
  if (params.release === 'major')
    Object.assign(
      next,
      v.minor === 0 && v.patch === 0 && v.pre.length ? {} : { major: v.major + 1, minor: 0, patch: 0 },
    );
  else if (params.release === 'minor')
    Object.assign(next, v.patch === 0 && v.pre.length ? {} : { minor: v.minor + 1, patch: 0 });
  else if (params.release === 'patch') Object.assign(next, v.pre.length ? {} : { patch: v.patch + 1 });
  else {
    const id = params.identifier || 'rc';
    if (v.pre.length && v.pre[0] === id && /^\d+$/.test(v.pre[v.pre.length - 1])) {
      next.pre = v.pre.slice(0, -1).concat([String(+v.pre[v.pre.length - 1] + 1)]);
    } else {
      if (!v.pre.length) next.patch = v.patch + 1;
      next.pre = [id, '0'];
    }
  }
  return { from: params.version, release: params.release, version: lib.format(next) };
}
