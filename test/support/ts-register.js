// Lets a child process (or a worker thread) started by a test run TypeScript sources directly:
//   node -r ./test/support/ts-register.js path/to/file.ts
// (the same SWC transform jest uses; types are checked by `npm run typecheck`). What it compiles is
// kept under node_modules/.cache, keyed by the source, so that the next process or thread that
// loads the same files (every test that starts a node starts the document server's thread) reads
// the output instead of compiling again.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const CACHE_DIR = path.resolve(__dirname, '../../node_modules/.cache/ts-register');
// Output of another SWC version, or of other options, is another entry.
const OPTIONS_KEY = `${require('@swc/core/package.json').version} es2022 commonjs inline-maps`;
let swc;

function compile(source, filename) {
  swc ??= require('@swc/core');
  return swc.transformSync(source, {
    filename,
    sourceMaps: 'inline',
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  }).code;
}

require.extensions['.ts'] = function compileTs(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const key = crypto
    .createHash('sha256')
    .update(OPTIONS_KEY)
    .update('\0')
    .update(filename)
    .update('\0')
    .update(source)
    .digest('hex');
  const cached = path.join(CACHE_DIR, `${key}.js`);
  let code;
  try {
    code = fs.readFileSync(cached, 'utf8');
  } catch {
    code = compile(source, filename);
    try {
      fs.mkdirSync(CACHE_DIR, { recursive: true });
      // Written under a unique name, then renamed: a reader never sees half a file.
      const partial = `${cached}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
      fs.writeFileSync(partial, code);
      fs.renameSync(partial, cached);
    } catch {
      // No cache (a read-only tree): compiling every time is only slower.
    }
  }
  module._compile(code, filename);
};
