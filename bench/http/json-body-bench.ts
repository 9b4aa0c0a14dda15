/**
 * Micro-benchmark of the JSON body parser's fast path (src/http/json-body.middleware.ts): CPU time
 * per request to read and parse a body, driven with a stand-in request (no socket, no express), so
 * the figure is the parser's own cost. Bodies: a typical 200-byte `POST /mcp` call (under 64 opening
 * brackets: the depth check only counts them), and a 1 KB and a 64 KB one made of many small objects
 * and arrays (past 64 opening brackets: the depth check scans the text).
 *
 *   node -r ./test/support/ts-register.js bench/http/json-body-bench.ts
 *
 * `BENCH_PARSER=<path>` measures another copy of the middleware (for a before/after comparison).
 * Prints one JSON line: nanoseconds per request, the best of 7 rounds, per body.
 */
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { RequestHandler } from 'express';

const modulePath = process.env.BENCH_PARSER
  ? path.resolve(process.env.BENCH_PARSER)
  : path.join(__dirname, '../../src/http/json-body.middleware');
const { jsonBody } = require(modulePath) as {
  jsonBody: (o: { limit: number; type: string[]; strict: boolean }) => RequestHandler;
};

const parser = jsonBody({ limit: 12 * 1024 * 1024, type: ['application/json'], strict: true });

const typical = JSON.stringify({
  tool: 'mem_set',
  input: {
    key: 'agent-17/notes/session-2026-05-01',
    value: {
      text: 'the customer asked for the invoice of April again',
      tags: ['billing', 'follow-up'],
      n: 42,
    },
  },
});
const item = (i: number) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'], meta: { ok: true } });
const oneKb = JSON.stringify({
  tool: 'db_insert',
  input: { table: 'rows', rows: Array.from({ length: 40 }, (_, i) => ({ id: i, tags: [i] })) },
});
const sixtyFourKb = JSON.stringify({
  tool: 'mem_set',
  input: { key: 'big', value: Array.from({ length: 1000 }, (_, i) => item(i)) },
});

/** A stand-in for IncomingMessage: what the fast path reads. */
class FakeRequest extends EventEmitter {
  complete = true;
  readableEnded = false;
  body?: unknown;
  constructor(readonly headers: Record<string, string>) {
    super();
  }
}

function perRequestNs(text: string, rounds = 7): number {
  const chunk = Buffer.from(text);
  const headers = { 'content-type': 'application/json', 'content-length': String(chunk.length) };
  const iterations = Math.max(200, Math.floor(4_000_000 / chunk.length));
  let best = Infinity;
  let sink = 0;
  for (let round = 0; round < rounds; round++) {
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i++) {
      const req = new FakeRequest(headers);
      parser(req as never, {} as never, (err?: unknown) => {
        if (err) throw err as Error;
        sink += req.body === undefined ? 0 : 1;
      });
      req.emit('data', chunk);
      req.emit('end');
    }
    const used = process.cpuUsage(start);
    best = Math.min(best, ((used.user + used.system) * 1000) / iterations);
  }
  if (sink === 0) throw new Error('nothing parsed');
  return Math.round(best);
}

const result = {
  parser: path.relative(process.cwd(), modulePath),
  node: process.version,
  bytes: { typical: typical.length, oneKb: oneKb.length, sixtyFourKb: sixtyFourKb.length },
  nsPerRequest: {
    typical: perRequestNs(typical),
    oneKb: perRequestNs(oneKb),
    sixtyFourKb: perRequestNs(sixtyFourKb),
  },
};
process.stdout.write(`${JSON.stringify(result)}\n`);
