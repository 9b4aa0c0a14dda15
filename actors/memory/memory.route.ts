import type { Response } from 'express';
import { z } from 'zod';
import { MEMORY_LIMITS, MemoryNamespaceTypeSchema, MemoryVisibilitySchema } from './memory.collection';
import { MEMORY_EXPORT_FORMAT, type MemoryApi, type MemoryCaller } from './memory.service';
import { errors } from '../../schemas/errors';
import type { ResolvedAppDeps, RouteModule } from '../../src/http/app.types';
import { requirePrincipal } from '../../src/http/auth';
import { parseBody, parseQuery } from '../../src/http/validation';

/** What the memory routes read from the process's services. */
interface MemoryRouteServices {
  readonly memory: MemoryApi;
}

const key = z.string().min(1).max(MEMORY_LIMITS.maxKey);
const namespaceId = z.string().min(1).max(MEMORY_LIMITS.maxNamespaceId);

const ListQuerySchema = z.object({
  search: z.string().min(1).max(200).optional(),
  namespaceType: MemoryNamespaceTypeSchema.optional(),
  namespaceId: namespaceId.optional(),
  export: z.enum(['1', 'true', '0', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(MEMORY_LIMITS.maxListLimit).optional(),
});

const WriteBodySchema = z.object({
  key,
  content: z.unknown().refine((v) => v !== undefined && v !== null, { message: 'content is required' }),
  namespaceType: MemoryNamespaceTypeSchema.default('user'),
  namespaceId: namespaceId.optional(),
  visibility: MemoryVisibilitySchema.optional(),
  tags: z.array(z.string().min(1).max(MEMORY_LIMITS.maxTag)).max(MEMORY_LIMITS.maxTags).optional(),
  workspaceId: z.string().min(1).max(200).optional(),
});

const DeleteQuerySchema = z.object({
  key,
  namespaceType: MemoryNamespaceTypeSchema.default('user'),
  namespaceId: namespaceId.optional(),
});

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
    const { export: exportFlag, ...query } = parseQuery(ListQuerySchema, req);
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
    const body = parseBody(WriteBodySchema, req);
    const { entry, created, execution } = await apiOf(deps).write(caller, body);
    res.status(created ? 201 : 200).json({ entry, execution });
  });

  router.delete('/api/memory', deps.requireAuth, async (req, res) => {
    const caller = memoryCaller(res);
    const query = parseQuery(DeleteQuerySchema, req);
    res.json(await apiOf(deps).delete(caller, query));
  });
};
