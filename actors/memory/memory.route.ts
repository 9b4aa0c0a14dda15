import type { Response } from 'express';
import { MEMORY_LIMITS } from '../../schemas/documents/memory';
import { MEMORY_EXPORT_FORMAT, type MemoryApi, type MemoryCaller } from './memory.service';
import { errors } from '../../schemas/errors';
import type { ResolvedAppDeps, RouteModule } from '../../src/http/app.types';
import { requirePrincipal } from '../../src/http/auth';
import {
  MemoryListQuerySchema,
  MemoryWriteBodySchema,
  MemoryDeleteQuerySchema,
} from '../../schemas/http/memory';
import { parseBody, parseQuery } from '../../src/http/validation';

/** What the memory routes read from the process's services. */
interface MemoryRouteServices {
  readonly memory: MemoryApi;
}

/** The caller: an operator account or one of its agents (the tenant is the account). */
function memoryCaller(res: Response): MemoryCaller {
  const principal = requirePrincipal(res);
  if (!principal.accountId) {
    throw errors.forbidden('Governed memory belongs to an operator account: use an account session or token');
  }
  return principal as MemoryCaller;
}

function apiOf(deps: ResolvedAppDeps<MemoryRouteServices>) {
  if (!deps.services) throw errors.unavailable('Memory is not available on this node');
  return deps.services.memory;
}

/**
 * `/api/memory` (docs/memory.md): governed memory entries of the caller's account. Reads list what
 * the caller may see; every change is recorded as a finished execution whose rollback
 * (`POST /api/executions/{id}/actions`) puts the previous entry back.
 */
export const memoryRoute: RouteModule<MemoryRouteServices> = (router, deps) => {
  router.get('/api/memory', deps.requireAuth, async (req, res) => {
    const caller = memoryCaller(res);
    const { export: exportFlag, ...query } = parseQuery(MemoryListQuerySchema, req);
    const api = apiOf(deps);
    if (exportFlag === '1' || exportFlag === 'true') {
      const entries = await api.list(caller, { ...query, limit: query.limit ?? MEMORY_LIMITS.maxListLimit });
      res.json({ exportedAt: new Date().toISOString(), format: MEMORY_EXPORT_FORMAT, entries });
      return;
    }
    const [entries, viewerAgentId] = await Promise.all([api.list(caller, query), api.viewerAgentId(caller)]);
    res.json({ entries, viewerAgentId });
  });

  router.post('/api/memory', deps.requireAuth, async (req, res) => {
    const caller = memoryCaller(res);
    const body = parseBody(MemoryWriteBodySchema, req);
    const { entry, created, execution } = await apiOf(deps).write(caller, body);
    res.status(created ? 201 : 200).json({ entry, execution });
  });

  router.delete('/api/memory', deps.requireAuth, async (req, res) => {
    const caller = memoryCaller(res);
    const query = parseQuery(MemoryDeleteQuerySchema, req);
    res.json(await apiOf(deps).delete(caller, query));
  });
};
