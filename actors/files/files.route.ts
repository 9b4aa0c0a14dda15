import type { FilesApi, FilesCaller } from './files-api.service';
import { errors } from '../../schemas/errors';
import type { Response } from 'express';
import type { ResolvedAppDeps, RouteModule } from '../../src/http/app.types';
import { requirePrincipal } from '../../src/http/auth';
import {
  FilesListQuerySchema,
  FileWriteBodySchema,
  FileRenameBodySchema,
  FileDeleteQuerySchema,
} from '../../schemas/http/files';
import { parseBody, parseQuery } from '../../src/http/validation';

/** What the files routes read from the process's services. */
interface FilesRouteServices {
  readonly filesApi: FilesApi;
}

/** The caller: an operator account or one of its agents (the tenant is the account). */
function filesCaller(res: Response): FilesCaller {
  const principal = requirePrincipal(res);
  if (!principal.accountId) {
    throw errors.forbidden('Governed files belong to an operator account: use an account session or token');
  }
  return principal as FilesCaller;
}

function apiOf(deps: ResolvedAppDeps<FilesRouteServices>) {
  if (!deps.services) throw errors.unavailable('Files are not available on this node');
  return deps.services.filesApi;
}

/**
 * `/api/files` (docs/files.md, "HTTP"): the caller's account's governed files. Reads list what the
 * caller may see (owner, public, workspace members); every change is recorded as a finished
 * execution whose rollback (`POST /api/executions/{id}/actions`) restores the previous state.
 */
export const filesRoute: RouteModule<FilesRouteServices> = (router, deps) => {
  router.get('/api/files', deps.requireAuth, async (req, res) => {
    const caller = filesCaller(res);
    const { action, path, workspaceId, ...query } = parseQuery(FilesListQuerySchema, req);
    const api = apiOf(deps);
    if (action === 'preview' || action === 'summarize') {
      if (!path) throw errors.validation(`action=${action} needs a path`, { field: 'path' });
      res.json(
        action === 'preview'
          ? await api.preview(caller, path, workspaceId)
          : await api.summarize(caller, path, workspaceId),
      );
      return;
    }
    res.json(await api.list(caller, { ...query, workspaceId }));
  });

  router.post('/api/files', deps.requireAuth, async (req, res) => {
    const caller = filesCaller(res);
    const body = parseBody(FileWriteBodySchema, req);
    const { entry, execution } = await apiOf(deps).write(caller, body);
    res.status(201).json({ entry, execution });
  });

  router.patch('/api/files', deps.requireAuth, async (req, res) => {
    const caller = filesCaller(res);
    const body = parseBody(FileRenameBodySchema, req);
    const { entry, previousPath, execution } = await apiOf(deps).rename(caller, body);
    res.json({ entry, previousPath, execution });
  });

  router.delete('/api/files', deps.requireAuth, async (req, res) => {
    const caller = filesCaller(res);
    const query = parseQuery(FileDeleteQuerySchema, req);
    res.json(await apiOf(deps).delete(caller, query));
  });
};
