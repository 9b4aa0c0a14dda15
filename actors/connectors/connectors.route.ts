import type { Request, Response } from 'express';
import { errors } from '../../schemas/errors';
import {
  ConnectorDeleteResponseSchema,
  ConnectorListResponseSchema,
  ConnectorResponseSchema,
  ConnectorSlugParamsSchema,
  ConnectorSlugQuerySchema,
  CreateConnectorBodySchema,
  UpdateConnectorBodySchema,
} from '../../schemas/http/connectors';
import type { RouteModule } from '../../src/http/app.types';
import { requirePrincipal } from '../../src/http/auth';
import { parseBody, parseParams, parseQuery } from '../../src/http/validation';

/** Discovery (start or connect, `initialize`, `tools/list`) may take longer than a plain request. */
const DISCOVERY_TIMEOUT_MS = 45_000;

/** The caller and its account; a self-registered agent has none (403). */
function accountOf(res: Response) {
  const principal = requirePrincipal(res);
  if (!principal.accountId) {
    throw errors.forbidden('Connectors belong to an operator account: use an account session or token');
  }
  return { principal, to: `connectors:${principal.accountId}` };
}

/**
 * `/api/connectors` (docs/connectors.md): the caller's account's MCP connectors. Every answer is
 * parsed with its response schema (no internal id, no secret value leaves).
 */
export const connectorsRoute: RouteModule = (router, deps) => {
  const discoveryTimeout = Math.max(deps.config.REQUEST_TIMEOUT_MS, DISCOVERY_TIMEOUT_MS);

  router.get('/api/connectors', deps.requireAuth, async (_req, res) => {
    const { principal, to } = accountOf(res);
    res.json(
      ConnectorListResponseSchema.parse(
        await deps.system.ask(to, 'connectors.list', {}, { auth: principal }),
      ),
    );
  });

  router.get('/api/connectors/:slug', deps.requireAuth, async (req, res) => {
    const { principal, to } = accountOf(res);
    const { slug } = parseParams(ConnectorSlugParamsSchema, req);
    res.json(
      ConnectorResponseSchema.parse(
        await deps.system.ask(to, 'connectors.get', { slug }, { auth: principal }),
      ),
    );
  });

  router.post('/api/connectors', deps.requireAuth, async (req, res) => {
    const { principal, to } = accountOf(res);
    const body = parseBody(CreateConnectorBodySchema, req);
    const reply = await deps.system.ask(to, 'connectors.create', body, {
      auth: principal,
      timeoutMs: discoveryTimeout,
    });
    res.status(201).json(ConnectorResponseSchema.parse(reply));
  });

  router.patch('/api/connectors/:slug', deps.requireAuth, async (req, res) => {
    const { principal, to } = accountOf(res);
    const { slug } = parseParams(ConnectorSlugParamsSchema, req);
    const changes = parseBody(UpdateConnectorBodySchema, req);
    const reply = await deps.system.ask(to, 'connectors.update', { slug, changes }, { auth: principal });
    res.json(ConnectorResponseSchema.parse(reply));
  });

  const remove = async (res: Response, slug: string) => {
    const { principal, to } = accountOf(res);
    const reply = await deps.system.ask(to, 'connectors.delete', { slug }, { auth: principal });
    res.json(ConnectorDeleteResponseSchema.parse(reply));
  };
  router.delete('/api/connectors/:slug', deps.requireAuth, async (req: Request, res) => {
    await remove(res, parseParams(ConnectorSlugParamsSchema, req).slug);
  });
  router.delete('/api/connectors', deps.requireAuth, async (req, res) => {
    await remove(res, parseQuery(ConnectorSlugQuerySchema, req).slug);
  });

  router.post('/api/connectors/:slug/refresh', deps.requireAuth, async (req, res) => {
    const { principal, to } = accountOf(res);
    const { slug } = parseParams(ConnectorSlugParamsSchema, req);
    const reply = await deps.system.ask(
      to,
      'connectors.refresh',
      { slug },
      {
        auth: principal,
        timeoutMs: discoveryTimeout,
      },
    );
    res.json(ConnectorResponseSchema.parse(reply));
  });
};
