/**
 * Child of request-classes.test.ts, run with `--allow-natives-syntax`: serves an express app through
 * the front door (`listen`), holds two requests in flight at the same point of the same route, and
 * reports over IPC whether V8 gave them the same hidden class (`%HaveSameMap`), for the requests and
 * for the responses.
 */
import express from 'express';
import { listen } from '../../../../src/http/listen';

// `%HaveSameMap` is V8 syntax, not JavaScript: it is compiled at run time, where the flag allows it.
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

async function main(): Promise<void> {
  const app = express();
  app.use(express.json());
  const held: Array<{ req: express.Request; res: express.Response }> = [];
  app.post('/held', (req, res) => {
    held.push({ req, res });
    if (held.length < 2) return;
    const [a, b] = held.splice(0) as [(typeof held)[0], (typeof held)[0]];
    process.send?.({
      requests: haveSameMap(a.req, b.req),
      responses: haveSameMap(a.res, b.res),
      bodies: [a.req.body as unknown, b.req.body as unknown],
    });
    a.res.json({ ok: true });
    b.res.json({ ok: true });
  });
  const handle = await listen(app, { host: '127.0.0.1', port: 0 });
  const post = (n: number) =>
    fetch(`${handle.url}/held`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ n }),
    }).then((r) => r.json() as Promise<unknown>);
  // Twice: the second pair shows whether requests that express has handled before share classes.
  for (let round = 0; round < 2; round += 1) await Promise.all([post(1), post(2)]);
  await handle.close(1000);
  process.send?.({ done: true });
}

main().catch((err: unknown) => {
  process.stderr.write(`${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
