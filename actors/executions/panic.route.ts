import type { Request, Response } from 'express';
import { errors } from '../../schemas/errors';
import {
  PanicBodySchema,
  PanicLiftSchema,
  PanicResponseSchema,
  PanicStatusResponseSchema,
} from '../../schemas/http/executions';
import type { RouteModule } from '../../src/http/app.types';
import { parseBody, parseQuery } from '../../src/http/validation';
import { ACTION_TIMEOUT_MS, accountCaller, executionsOf } from './executions-http';
import type { ExecutionsRouteServices } from './executions-http';

/**
 * `/api/panic` (docs/executions.md, "Panic"): `POST` stops a workspace (default: the caller's
 * default one), `DELETE` lifts its lockdown, `GET` tells whether it is locked down. A workspace
 * the caller is not a member of is 404 (in the `panic:<workspace>` actor).
 */
export const panicRoute: RouteModule<ExecutionsRouteServices> = (router, deps) => {
  const timeoutMs = Math.max(deps.config.REQUEST_TIMEOUT_MS, ACTION_TIMEOUT_MS);

  const workspaceOf = async (res: Response, given: string | undefined) => {
    const caller = accountCaller(res);
    const workspaceId = given ?? (await executionsOf(deps).workspaces.defaultWorkspaceOf(caller.accountId));
    if (!workspaceId) throw errors.notFound('Workspace not found');
    return { caller, to: `panic:${workspaceId}` };
  };

  router.post('/api/panic', deps.requireAuth, async (req, res) => {
    const { workspaceId, sessionId } = parseBody(PanicBodySchema, req);
    const { caller, to } = await workspaceOf(res, workspaceId);
    const reply = await deps.system.ask(to, 'panic.start', sessionId ? { sessionId } : {}, {
      auth: caller,
      timeoutMs,
    });
    res.json(PanicResponseSchema.parse(reply));
  });

  // The workspace of a DELETE may come in the body or the query string.
  const liftTarget = (req: Request) =>
    parseBody(PanicLiftSchema, req).workspaceId ?? parseQuery(PanicLiftSchema, req).workspaceId;

  router.delete('/api/panic', deps.requireAuth, async (req, res) => {
    const { caller, to } = await workspaceOf(res, liftTarget(req));
    res.json(PanicStatusResponseSchema.parse(await deps.system.ask(to, 'panic.lift', {}, { auth: caller })));
  });

  router.get('/api/panic', deps.requireAuth, async (req, res) => {
    const { caller, to } = await workspaceOf(res, parseQuery(PanicLiftSchema, req).workspaceId);
    res.json(
      PanicStatusResponseSchema.parse(await deps.system.ask(to, 'panic.status', {}, { auth: caller })),
    );
  });
};
