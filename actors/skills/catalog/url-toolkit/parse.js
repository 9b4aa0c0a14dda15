/** Components of each URL: scheme, credentials present, host, port, path, decoded query pairs, fragment. */
function run(params) {
  return { results: params.urls.map((u) => lib.parse(u)) };
}
