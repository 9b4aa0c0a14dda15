/** Checks each address: syntax, domain, and flags role and disposable addresses. */
function run(params) {
  const results = params.emails.map((e) => lib.check(e));
  return { valid: results.filter((r) => r.valid).length, results };
}
