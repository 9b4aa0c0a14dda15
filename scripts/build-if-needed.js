#!/usr/bin/env node
// Builds dist/ with tsc when it is missing or older than any source file, so `npm start` works on a fresh clone.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const sourceDirs = ['src', 'actors', 'schemas', 'client', 'bench'];

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (/\.(ts|js|json)$/.test(entry.name)) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sourcesMtime = Math.max(
  ...sourceDirs.map((d) => newestMtime(path.join(root, d))),
  fs.statSync(path.join(root, 'package.json')).mtimeMs,
  fs.statSync(path.join(root, 'tsconfig.json')).mtimeMs,
);
const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
if (built < sourcesMtime) {
  process.stdout.write('Building (tsc)...\n');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  // The skill catalog's data files are read at run time, not compiled: copied beside the build.
  execFileSync(process.execPath, [path.join(__dirname, 'copy-skill-catalog.js')], {
    cwd: root,
    stdio: 'inherit',
  });
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, new Date().toISOString());
}

// The operator console (console/, docs/console.md): built by Vite when its sources, or the plan
// table it shows, are newer than its last build.
const { buildConsole, consoleNeedsBuild } = require('./build-console');
if (consoleNeedsBuild()) {
  process.stdout.write('Building the console (vite)...\n');
  buildConsole();
}
