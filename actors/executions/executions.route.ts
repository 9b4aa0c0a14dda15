import { isExecutionId, newExecutionId } from './executions.repo';
import { executionSummary, executionView } from './execution-views';
import { errors } from '../../schemas/errors';
import {
  ActionReplySchema,
  CreateExecutionBodySchema,
  ExecutionActionBodySchema,
  ExecutionDetailResponseSchema,
  ExecutionListQuerySchema,
  ExecutionViewSchema,
} from '../../schemas/http/executions';
import type { RouteModule } from '../../src/http/app.types';
import { parseBody, parseQuery } from '../../src/http/validation';
import { ACTION_TIMEOUT_MS, accountCaller, executionsOf } from './executions-http';
import type { ExecutionsRouteServices } from './executions-http';

/**
 * `/api/executions` (docs/executions.md): the caller's account's executions. Listings and details
 * are plain reads; creation and actions go to the `execution:<id>` actor.
 */
export const executionsRoute: RouteModule<ExecutionsRouteServices> = (router, deps) => {
  const timeoutMs = Math.max(deps.config.REQUEST_TIMEOUT_MS, ACTION_TIMEOUT_MS);

  router.get('/api/executions', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const query = parseQuery(ExecutionListQuerySchema, req);
    const { docs, nextCursor } = await executionsOf(deps).queries.list(caller.accountId, query);
    res.json({ executions: docs.map(executionSummary), nextCursor });
  });

  // An extension (not in the spec): creates an execution of a registered type.
  router.post('/api/executions', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const { steps, input, ...body } = parseBody(CreateExecutionBodySchema, req);
    const reply = await deps.system.ask<{ execution: unknown }>(
      `execution:${newExecutionId()}`,
      'execution.create',
      { ...body, input: input ?? (steps ? { steps } : {}) },
      { auth: caller },
    );
    res.status(201).json({ execution: ExecutionViewSchema.parse(reply.execution) });
  });

  router.get('/api/executions/:id', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const svc = executionsOf(deps);
    const doc = await svc.queries.get(caller.accountId, String(req.params.id));
    const logs = await svc.logs.tail(doc._id);
    res.json(ExecutionDetailResponseSchema.parse({ execution: executionView(doc), logs }));
  });

  router.post('/api/executions/:id/actions', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const id = String(req.params.id);
    const { action } = parseBody(ExecutionActionBodySchema, req);
    if (!isExecutionId(id)) throw errors.notFound('Execution not found', { id });
    const reply = await deps.system.ask(
      `execution:${id}`,
      'execution.act',
      { action, via: 'actions' },
      { auth: caller, timeoutMs },
    );
    res.json(ActionReplySchema.parse(reply));
  });
};
