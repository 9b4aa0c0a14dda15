#!/usr/bin/env node
// Builds the operator console (console/, Vite + Preact) into dist/console, and stamps the build so
// that build-if-needed.js can tell when the console's sources changed since.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const outDir = path.join(root, 'dist', 'console');

function buildConsole() {
  // Vite's package exports do not list its bin: found where npm installs it.
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!fs.existsSync(vite)) {
    process.stderr.write('console: vite is not installed (run `npm install`); the console is not built\n');
    return false;
  }
  execFileSync(
    process.execPath,
    [vite, 'build', '--config', path.join(root, 'console', 'vite.config.mts'), '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    },
  );
  fs.writeFileSync(path.join(outDir, '.build-stamp'), new Date().toISOString());
  return true;
}

module.exports = { buildConsole, consoleOutDir: outDir };

if (require.main === module) {
  if (!buildConsole()) process.exitCode = 1;
}
