import {
  AppLibraryResponseSchema,
  AppSlugParamsSchema,
  DeviceInstallBodySchema,
  DeviceRemoveSchema,
  InstallAppBodySchema,
  OpenAppBodySchema,
  PatchInstallationBodySchema,
  RateAppBodySchema,
} from '../../schemas/http/apps';
import type { RouteModule } from '../../src/http/app.types';
import { requireAccount } from '../../src/http/auth';
import { parseBody, parseParams, parseQuery } from '../../src/http/validation';
import { appsOf, type AppsRouteServices } from './apps.route';

const WHO = 'Apps are installed by an account';

/**
 * An account's installations of apps (docs/apps.md, "Installing"): readiness, install, the
 * installed list, changes, removal, updates and rollback, device installs, ratings and the
 * account's activity. The fixed paths come before
 * `/api/apps/:slug` routes of the catalog in `routeModules`.
 */
export const appInstallationsRoute: RouteModule<AppsRouteServices> = (router, deps) => {
  router.get('/api/apps/installed', deps.requireAuth, async (_req, res) => {
    const caller = requireAccount(res, WHO);
    res.json(await appsOf(deps).installer.installedApps(caller.accountId));
  });

  router.get('/api/apps/updates', deps.requireAuth, async (_req, res) => {
    const caller = requireAccount(res, WHO);
    const updates = await appsOf(deps).updater.updates(caller.accountId);
    res.json({ updates: updates.map(({ installation: _, ...u }) => u), total: updates.length });
  });

  router.post('/api/apps/updates', deps.requireAuth, async (_req, res) => {
    const caller = requireAccount(res, WHO);
    res.json(await appsOf(deps).updater.applyUpdates(caller));
  });

  router.get('/api/apps/library', deps.requireAuth, async (_req, res) => {
    const caller = requireAccount(res, WHO);
    res.set('Cache-Control', 'private, no-cache');
    res.json(AppLibraryResponseSchema.parse(await appsOf(deps).devices.library(caller.accountId)));
  });

  router.get('/api/apps/activity', deps.requireAuth, async (_req, res) => {
    const caller = requireAccount(res, WHO);
    res.set('Cache-Control', 'private, no-cache');
    res.json({ activity: await appsOf(deps).effects.activityOf(caller.accountId) });
  });

  router.post('/api/apps/install', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const body = parseBody(InstallAppBodySchema, req);
    res.status(201).json(await appsOf(deps).installer.install(caller, body));
  });

  router.get('/api/apps/:slug/readiness', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { slug } = parseParams(AppSlugParamsSchema, req);
    res.json(await appsOf(deps).installer.readiness(caller.accountId, slug));
  });

  router.patch('/api/apps/:slug/installation', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { slug } = parseParams(AppSlugParamsSchema, req);
    const body = parseBody(PatchInstallationBodySchema, req);
    res.json(await appsOf(deps).installer.patch(caller.accountId, slug, body));
  });

  router.delete('/api/apps/:slug/installation', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { slug } = parseParams(AppSlugParamsSchema, req);
    res.json(await appsOf(deps).installer.uninstall(caller.accountId, slug));
  });

  router.post('/api/apps/:slug/open', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { slug } = parseParams(AppSlugParamsSchema, req);
    const { target } = parseBody(OpenAppBodySchema, req);
    res.json(await appsOf(deps).installer.open(caller.accountId, slug, target));
  });

  router.post('/api/apps/:slug/rollback', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { slug } = parseParams(AppSlugParamsSchema, req);
    res.json(await appsOf(deps).updater.rollback(caller, slug));
  });

  router.post('/api/apps/:slug/device-install', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { slug } = parseParams(AppSlugParamsSchema, req);
    const body = parseBody(DeviceInstallBodySchema, req);
    res.status(201).json(await appsOf(deps).devices.install(caller, slug, body));
  });

  router.delete('/api/apps/:slug/device-install', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { slug } = parseParams(AppSlugParamsSchema, req);
    // The target may come in the query (DELETE bodies are often dropped) or in a JSON body.
    const fromQuery = parseQuery(DeviceRemoveSchema, req).target;
    const target = fromQuery ?? parseBody(DeviceRemoveSchema, req).target;
    res.json(await appsOf(deps).devices.remove(caller, slug, target));
  });

  router.post('/api/apps/:slug/rating', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { slug } = parseParams(AppSlugParamsSchema, req);
    const { stars } = parseBody(RateAppBodySchema, req);
    res.json(await appsOf(deps).ratings.rate(caller.accountId, slug, stars));
  });
};
