import http from 'node:http';
import path from 'node:path';
import express from 'express';
import { listen, type HttpServerHandle } from '../../../src/http/listen';
import { requestClassesOf } from '../../../src/http/request-classes';
import { killAllChildren, startChild } from '../../support/child-process';

/**
 * The front door's request and response objects are born with the app's prototypes
 * (src/http/request-classes.ts), so express's `Object.setPrototypeOf` changes nothing and V8 keeps
 * one hidden class for all of them.
 */
describe('request classes of the front door', () => {
  let handle: HttpServerHandle | undefined;
  afterEach(async () => {
    await handle?.close(1000);
    handle = undefined;
    await killAllChildren();
  });

  it('constructs requests and responses with the prototypes express would give them', async () => {
    const app = express();
    app.set('trust proxy', false);
    app.post('/echo', express.json(), (req, res) => {
      res.status(201).json({
        app: req.app === app,
        header: req.get('x-probe') ?? null,
        ip: req.ip ?? null,
        body: req.body as unknown,
        path: req.path,
        query: req.query,
      });
    });
    handle = await listen(app, { host: '127.0.0.1', port: 0 });
    const seen: Array<{ req: boolean; res: boolean }> = [];
    // Before express sees them: what the server itself constructed.
    handle.server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) =>
      seen.push({
        req: Object.getPrototypeOf(req) === app.request,
        res: Object.getPrototypeOf(res) === app.response,
      }),
    );
    const r = await fetch(`${handle.url}/echo?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-probe': 'yes' },
      body: JSON.stringify({ a: [1, 2] }),
    });
    expect(r.status).toBe(201);
    expect(await r.json()).toEqual({
      app: true,
      header: 'yes',
      ip: '127.0.0.1',
      body: { a: [1, 2] },
      path: '/echo',
      query: { x: '1' },
    });
    expect(seen).toEqual([{ req: true, res: true }]);
    // Still Node's classes underneath.
    const { IncomingMessage, ServerResponse } = requestClassesOf(app);
    expect(IncomingMessage.prototype).toBeInstanceOf(http.IncomingMessage);
    expect(ServerResponse.prototype).toBeInstanceOf(http.ServerResponse);
  });

  it('gives one app one pair of classes, however many times it is served', async () => {
    const app = express();
    app.get('/x', (_req, res) => res.send('x'));
    const first = requestClassesOf(app);
    const requestProto: unknown = app.request;
    expect(requestClassesOf(app)).toBe(first);
    handle = await listen(app, { host: '127.0.0.1', port: 0 });
    expect(app.request).toBe(requestProto);
    expect(await (await fetch(`${handle.url}/x`)).text()).toBe('x');
  });

  it('keeps one hidden class for every request and every response (V8, --allow-natives-syntax)', async () => {
    const child = startChild(path.join(__dirname, 'support/hidden-classes.child.ts'), {}, [
      '--allow-natives-syntax',
    ]);
    await child.waitForMessage<{ done?: boolean }>((m) => m.done === true, 'the two rounds of held requests');
    expect(await child.exited).toBe(0);
    const pairs = (
      child.messages as Array<{ requests?: boolean; responses: boolean; bodies: unknown[] }>
    ).filter((m) => m.requests !== undefined);
    expect(pairs).toHaveLength(2);
    for (const pair of pairs) {
      expect(pair.requests).toBe(true);
      expect(pair.responses).toBe(true);
      expect(pair.bodies).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
    }
  });
});
