import { errors } from '../../schemas/errors';
import { AppSlugParamsSchema, ListAppsQuerySchema, PublishAppBodySchema } from '../../schemas/http/apps';
import type { RouteModule } from '../../src/http/app.types';
import { principalOf, requireAccount } from '../../src/http/auth';
import { parseBody, parseParams, parseQuery } from '../../src/http/validation';
import { appView } from './app-views';
import type { AppsService } from './apps.service';

/** What the app store's routes read from the process's services. */
export interface AppsRouteServices {
  readonly apps: AppsService;
}

export function appsOf(deps: { services?: AppsRouteServices }): AppsService {
  const apps = deps.services?.apps;
  if (!apps) throw errors.unavailable('The app store is not available on this node');
  return apps;
}

/**
 * The catalog routes of the app store (docs/apps.md): publishing (enterprise accounts), the
 * public listing, detail and package download. Reads with credentials also see the caller's own
 * unpublished apps; without, published ones only.
 */
export const appsCatalogRoute: RouteModule<AppsRouteServices> = (router, deps) => {
  router.post('/api/apps', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, 'Apps are published by an enterprise account');
    const body = parseBody(PublishAppBodySchema, req);
    const { app, created } = await appsOf(deps).catalog.publish(caller.accountId, body);
    res.status(created ? 201 : 200).json({ success: true, created, app });
  });

  router.get('/api/apps', async (req, res) => {
    res.json(await appsOf(deps).catalog.list(parseQuery(ListAppsQuerySchema, req)));
  });

  router.get('/api/apps/discovery', deps.optionalAuth, async (_req, res) => {
    const viewer = principalOf(res)?.accountId;
    if (principalOf(res)) res.set('Cache-Control', 'private, no-cache').vary('Authorization').vary('Cookie');
    res.json(await appsOf(deps).discovery.discovery(viewer));
  });

  router.get('/api/apps/:slug', deps.optionalAuth, async (req, res) => {
    const { slug } = parseParams(AppSlugParamsSchema, req);
    const viewer = principalOf(res)?.accountId;
    const app = await appsOf(deps).catalog.get(slug, viewer);
    if (viewer) res.set('Cache-Control', 'private, no-cache').vary('Authorization').vary('Cookie');
    res.json({ app: appView(app), viewerOwnsApp: viewer !== undefined && app.ownerAccountId === viewer });
  });

  router.get('/api/apps/:slug/download', deps.optionalAuth, async (req, res) => {
    const { slug } = parseParams(AppSlugParamsSchema, req);
    const pkg = await appsOf(deps).catalog.download(slug, principalOf(res)?.accountId);
    res.attachment(`${slug}.app.json`).json(pkg);
  });
};
