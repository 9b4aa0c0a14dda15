/** Finds IBAN-like sequences in a text (grouped by spaces or not) and validates each. */
function run(params) {
  const found = params.text.match(/\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b/g) || [];
  const seen = {};
  const results = [];
  for (const f of found) {
    const r = lib.check(f);
    if (seen[r.iban]) continue;
    seen[r.iban] = true;
    if (r.valid || params.includeInvalid) results.push(r);
  }
  return { count: results.length, ibans: results };
}
