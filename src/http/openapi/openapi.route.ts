import path from 'node:path';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { errors } from '../../../schemas/errors';
import type { RouteModule } from '../app.types';
import { parseParams } from '../validation';
import { defineContracts, type RouteContract } from './contract';
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiInfo } from './document';

/**
 * The reference page's own policy: scripts, styles, images and fonts from this origin only (Swagger
 * UI is served from node_modules, nothing from a CDN); `data:` images are the icons Swagger UI's
 * stylesheet embeds. Every other route keeps the front door's `default-src 'none'`.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The only files of swagger-ui-dist the page loads. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

// An inline script would need 'unsafe-inline': the page's one line of setup is a file of its own.
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true,
  tryItOutEnabled: false, withCredentials: true, defaultModelsExpandDepth: 0 });
`;

const AssetParamsSchema = z.object({ file: z.string().max(64) });

const html = (description: string) => ({ description, contentType: 'text/html', schema: z.string() });

/** The contracts of the document's own routes (the domains' are in `actors/<domain>/*.contract.ts`). */
export const openApiContracts: readonly RouteContract[] = defineContracts('Reference', [
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document (OpenAPI 3.1)',
    auth: 'none',
    responses: {
      200: { description: 'The OpenAPI 3.1 document', schema: z.object({ openapi: z.string() }).loose() },
    },
  },
  {
    method: 'get',
    path: '/docs',
    summary: 'The API reference page',
    auth: 'none',
    responses: { 200: html('HTML') },
  },
  {
    method: 'get',
    path: '/docs/assets/:file',
    summary: "The reference page's scripts, stylesheet and icon",
    auth: 'none',
    params: AssetParamsSchema,
    responses: {
      200: { description: 'The file', contentType: 'application/octet-stream', schema: z.string() },
    },
    errors: [404],
  },
]);

/** The whole document the service serves: the domains' contracts and the reference's own. */
export function serviceDocument(info: OpenApiInfo, contracts: readonly RouteContract[]): OpenApiDocument {
  return buildOpenApiDocument(info, [...contracts, ...openApiContracts]);
}

/**
 * `GET /openapi.json` (the document, built once from the contracts on first request), `GET /docs`
 * (Swagger UI over it) and the page's assets. Plumbing: the domains' contracts are handed in by the
 * composition root, as the route modules are.
 */
export function openApiRoute(info: OpenApiInfo, contracts: () => readonly RouteContract[]): RouteModule {
  let document: OpenApiDocument | undefined;
  const documentOf = () => (document ??= serviceDocument(info, contracts()));
  const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const page = (res: Response) =>
    res.set('Content-Security-Policy', DOCS_CSP).set('Cache-Control', 'no-cache');

  return (router) => {
    router.get('/openapi.json', (_req, res) => {
      res.set('Cache-Control', 'no-cache').json(documentOf());
    });
    router.get('/docs', (_req, res) => {
      page(res).type('html').send(PAGE);
    });
    router.get('/docs/assets/:file', (req: Request, res: Response) => {
      const { file } = parseParams(AssetParamsSchema, req);
      page(res).set('Cache-Control', 'public, max-age=3600');
      if (file === 'init.js') return void res.type('text/javascript').send(INIT);
      const type = ASSETS[file];
      if (!type) throw errors.notFound(`No asset ${file}`);
      res.type(type).sendFile(path.join(assetsDir, file));
    });
  };
}
