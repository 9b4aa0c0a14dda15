import fs from 'node:fs';
import path from 'node:path';
import express from 'express';

/** Where the built console lives (`npm run build` writes it to `dist/console`). */
export interface ConsoleAssetsOptions {
  /** The folder holding `index.html` and `assets/`. */
  dir: string;
}

/**
 * Paths the console never answers, whatever the method or `Accept`: the API, the MCP endpoint,
 * the probes, metrics and the documents of the API. A browser asking for one of them gets the
 * API's own answer (a 404 or 405 JSON body), never the console's page.
 */
const RESERVED = [
  '/api',
  '/mcp',
  '/health',
  '/livez',
  '/readyz',
  '/metrics',
  '/.well-known',
  '/openapi.json',
  '/docs',
  '/tools',
  '/register',
  '/agent',
];

function isReserved(p: string): boolean {
  return RESERVED.some((r) => p === r || p.startsWith(`${r}/`) || p.startsWith(`${r}.`));
}

/**
 * The console's CSP: its own scripts, styles, images and API calls only. No inline script, no
 * `eval`, no third-party origin; `data:`/`blob:` images for file previews; never framed.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Console not built</title>' +
  '<p>The console is not built yet: run <code>npm run build</code> (or <code>npm start</code>, which builds it).</p>';

/** Whether the request wants a page: `/` for anything taking HTML, other paths when HTML is preferred. */
function wantsPage(req: express.Request): boolean {
  if (req.path === '/') return req.accepts(['html', 'json']) === 'html';
  return req.accepts(['json', 'html']) === 'html';
}

/**
 * The operator console (docs/console.md): its static files, and its `index.html` for any other
 * GET that asks for a page (the single-page app routes in the browser). Placed after the route
 * modules, so it never shadows a route; a request it does not take goes on to the 404/405 answer.
 */
export function consoleAssets(options: ConsoleAssetsOptions): express.RequestHandler {
  const indexPath = path.join(options.dir, 'index.html');
  const files = express.static(options.dir, {
    index: false,
    fallthrough: true,
    redirect: false,
    setHeaders(res, filePath) {
      res.setHeader('Content-Security-Policy', CONSOLE_CSP);
      // Vite names the files under assets/ by their content hash: they never change.
      const hashed = filePath.startsWith(path.join(options.dir, 'assets') + path.sep);
      res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isReserved(req.path)) return next();
    files(req, res, (err?: unknown) => {
      if (err !== undefined) return next(err);
      if (!wantsPage(req)) return next();
      res.setHeader('Content-Security-Policy', CONSOLE_CSP);
      res.setHeader('Cache-Control', 'no-cache');
      if (!fs.existsSync(indexPath)) {
        res.status(503).type('html').send(NOT_BUILT_PAGE);
        return;
      }
      res.sendFile(indexPath, (sendErr?: Error) => {
        if (sendErr && !res.headersSent) next(sendErr);
      });
    });
  };
}
