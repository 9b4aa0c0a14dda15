// Probes the real services once before the suite. Results reach every test worker through
// process.env (workers are forked after this runs). With REQUIRE_SERVICES=1 a missing service fails the run.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

// The third-party MCP clients and their Node 22 (tools/mcp-clients, scripts/mcp-clients.js): their
// suites skip without them, and REQUIRE_SERVICES=1 wants them where the package exists (Linux x64).
const MCP_CLIENTS_MARKER = path.join(
  __dirname,
  '..',
  '..',
  'tools',
  'mcp-clients',
  'node_modules',
  '.installed-lock-sha256',
);

const SERVICES = {
  amqp: { env: 'AMQP_URL', fallback: 'amqp://guest:guest@127.0.0.1:5672', port: 5672 },
  redis: { env: 'REDIS_URL', fallback: 'redis://127.0.0.1:6379', port: 6379 },
  postgres: { env: 'DATABASE_URL', fallback: 'postgres://postgres@127.0.0.1:5432/test', port: 5432 },
  // MongoDB has no local default: the real one is used only when MONGODB_URL is set.
  mongodb: { env: 'MONGODB_URL', fallback: undefined, port: 27017 },
};

function reachable(url, defaultPort) {
  return new Promise((resolve) => {
    let host;
    let port;
    try {
      const u = new URL(url);
      host = u.hostname || '127.0.0.1';
      port = Number(u.port) || defaultPort;
    } catch {
      return resolve(false);
    }
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

module.exports = async function globalSetup() {
  const required = process.env.REQUIRE_SERVICES === '1';
  const missing = [];
  for (const [name, s] of Object.entries(SERVICES)) {
    const url = process.env[s.env] || s.fallback;
    const key = `TEST_${name.toUpperCase()}_URL`;
    if (url && (await reachable(url, s.port))) {
      process.env[key] = url;
    } else {
      delete process.env[key];
      if (required && name !== 'mongodb') missing.push(`${name} (${s.env || 'default'}: ${url})`);
    }
  }
  if (
    required &&
    process.platform === 'linux' &&
    process.arch === 'x64' &&
    !fs.existsSync(MCP_CLIENTS_MARKER)
  ) {
    missing.push('tools/mcp-clients (not installed: node scripts/mcp-clients.js install)');
  }
  if (missing.length > 0) {
    throw new Error(`REQUIRE_SERVICES=1 but these services are unreachable: ${missing.join(', ')}`);
  }
};
