/** Whether each expression parses, with the error or a reading of it. */
function run(params) {
  return {
    results: params.expressions.map((e) => {
      try {
        lib.parse(e);
        return { expression: e, valid: true, description: lib.describe(e) };
      } catch (err) {
        return { expression: e, valid: false, error: err.message };
      }
    }),
  };
}
