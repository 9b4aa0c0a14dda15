// Lets a child process started by a test run TypeScript sources directly:
//   node -r ./test/support/ts-register.js path/to/file.ts
// (the same SWC transform jest uses; types are checked by `npm run typecheck`).
const fs = require('node:fs');
const swc = require('@swc/core');

require.extensions['.ts'] = function compileTs(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = swc.transformSync(source, {
    filename,
    sourceMaps: 'inline',
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
