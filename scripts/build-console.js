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

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Whether the console's sources, the plan table it shows or the lockfile are newer than its build. */
function consoleNeedsBuild() {
  const stamp = path.join(outDir, '.build-stamp');
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  const sources = Math.max(
    newestMtime(path.join(root, 'console')),
    fs.statSync(path.join(root, 'actors', 'identity', 'plans.ts')).mtimeMs,
    fs.statSync(path.join(root, 'package-lock.json')).mtimeMs,
  );
  return built < sources;
}

module.exports = { buildConsole, consoleNeedsBuild, consoleOutDir: outDir };

if (require.main === module) {
  if (!buildConsole()) process.exitCode = 1;
}
