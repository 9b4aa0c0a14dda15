/** Validates IBANs: country, length, mod-97 check digits; the printed form of valid ones. */
function run(params) {
  const results = params.ibans.map((i) => lib.check(i));
  return {
    valid: results.filter((r) => r.valid).length,
    invalid: results.filter((r) => !r.valid).length,
    results,
  };
}
