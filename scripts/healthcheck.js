#!/usr/bin/env node
// The container's health check (Dockerfile HEALTHCHECK, docker-compose.yml); the image has no curl.
//   node scripts/healthcheck.js [/livez | /readyz]     exit 0 = healthy, 1 = not
// Asks the front door of this container, as the program configured itself: the environment, then
// a `.env` in the working directory (the environment wins, as in src/main.ts).
try {
  process.loadEnvFile();
} catch {
  // No .env (the usual case in a container), or one the program itself would have refused.
}

const probe = process.argv[2] || '/livez';
if (!/^\/(livez|readyz|health)$/.test(probe)) {
  process.stderr.write(`healthcheck: unknown probe ${probe} (use /livez or /readyz)\n`);
  process.exit(2);
}
// A worker serves no HTTP: it is healthy while its process runs (the container stops with it).
if (process.env.ROLE === 'worker') process.exit(0);

const port = process.env.PORT || '3000';
const configured = process.env.HOST || '127.0.0.1';
// A wildcard listens on loopback too; any other address is asked where it listens.
const host = ['0.0.0.0', '::', '[::]'].includes(configured)
  ? '127.0.0.1'
  : configured.includes(':') && !configured.startsWith('[')
    ? `[${configured}]`
    : configured;

fetch(`http://${host}:${port}${probe}`, { signal: AbortSignal.timeout(4000) }).then(
  (res) => {
    if (!res.ok) process.stderr.write(`healthcheck: ${probe} answered ${res.status}\n`);
    process.exit(res.ok ? 0 : 1);
  },
  (err) => {
    process.stderr.write(`healthcheck: ${probe} unreachable (${err.cause?.code || err.name})\n`);
    process.exit(1);
  },
);
