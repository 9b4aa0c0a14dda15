import { failureOf, executionSummary, RECOVERABLE_STATUSES } from './execution-views';
import { isExecutionId } from './executions.repo';
import { errors } from '../../schemas/errors';
import {
  ActionReplySchema,
  ExecutionListQuerySchema,
  RecoveryBodySchema,
  RecoveryListResponseSchema,
} from '../../schemas/http/executions';
import type { RouteModule } from '../../src/http/app.types';
import { parseBody, parseQuery } from '../../src/http/validation';
import { ACTION_TIMEOUT_MS, accountCaller, executionsOf } from './executions-http';
import type { ExecutionsRouteServices } from './executions-http';

/**
 * `/api/recovery` (docs/executions.md): the account's recoverable executions with what failed,
 * and the recovery actions (resume, retry, cancel, rollback) on one of them.
 */
export const recoveryRoute: RouteModule<ExecutionsRouteServices> = (router, deps) => {
  const timeoutMs = Math.max(deps.config.REQUEST_TIMEOUT_MS, ACTION_TIMEOUT_MS);

  router.get('/api/recovery', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const query = parseQuery(ExecutionListQuerySchema, req);
    const status = query.status
      ? query.status.filter((s) => RECOVERABLE_STATUSES.includes(s))
      : [...RECOVERABLE_STATUSES];
    if (status.length === 0) {
      res.json({ executions: [], nextCursor: null });
      return;
    }
    const { docs, nextCursor } = await executionsOf(deps).queries.list(caller.accountId, {
      ...query,
      status,
    });
    const executions = docs.map((doc) => ({ ...executionSummary(doc), failure: failureOf(doc)! }));
    res.json(RecoveryListResponseSchema.parse({ executions, nextCursor }));
  });

  router.post('/api/recovery', deps.requireAuth, async (req, res) => {
    const caller = accountCaller(res);
    const { executionId, action } = parseBody(RecoveryBodySchema, req);
    if (!isExecutionId(executionId)) throw errors.notFound('Execution not found', { id: executionId });
    const reply = await deps.system.ask(
      `execution:${executionId}`,
      'execution.act',
      { action, via: 'recovery' },
      { auth: caller, timeoutMs },
    );
    res.json(ActionReplySchema.parse(reply));
  });
};
