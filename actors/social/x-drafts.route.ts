import {
  ApproveDraftBodySchema,
  CreateDraftBodySchema,
  PublishBodySchema,
  QueueQuerySchema,
  RejectDraftBodySchema,
  SocialIdParamsSchema,
} from '../../schemas/http/social';
import type { RouteModule } from '../../src/http/app.types';
import { requireAccount } from '../../src/http/auth';
import { parseBody, parseParams, parseQuery } from '../../src/http/validation';
import { socialOf, WHO, type SocialRouteServices } from './social.route';

/**
 * Drafts, review, the queue and publishing (docs/social.md): `GET|POST /api/x/drafts`,
 * `POST /api/x/drafts/:id/approve|reject`, `GET /api/x/queue`, `POST /api/x/queue/:id/cancel`,
 * `POST /api/x/publish`.
 */
export const xDraftsRoute: RouteModule<SocialRouteServices> = (router, deps) => {
  const social = socialOf(deps);
  if (!social) return;

  router.get('/api/x/drafts', deps.requireAuth, async (_req, res) => {
    const caller = requireAccount(res, WHO);
    res.json({ drafts: await social.drafts.pending(caller.accountId) });
  });

  router.post('/api/x/drafts', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const body = parseBody(CreateDraftBodySchema, req);
    res.status(201).json({ draft: await social.drafts.create(caller.accountId, body, 'api') });
  });

  router.post('/api/x/drafts/:id/approve', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { id } = parseParams(SocialIdParamsSchema, req);
    const { scheduledFor } = parseBody(ApproveDraftBodySchema, req);
    const when = scheduledFor ? new Date(scheduledFor) : undefined;
    res.json(await social.drafts.approve(caller.accountId, id, when));
  });

  router.post('/api/x/drafts/:id/reject', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { id } = parseParams(SocialIdParamsSchema, req);
    const { reason } = parseBody(RejectDraftBodySchema, req);
    res.json({ draft: await social.drafts.reject(caller.accountId, id, reason) });
  });

  router.get('/api/x/queue', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { status } = parseQuery(QueueQuerySchema, req);
    res.json({ queue: await social.drafts.queueOf(caller.accountId, status) });
  });

  router.post('/api/x/queue/:id/cancel', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const { id } = parseParams(SocialIdParamsSchema, req);
    res.json({ queueItem: await social.drafts.cancel(caller.accountId, id) });
  });

  router.post('/api/x/publish', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, WHO);
    const body = parseBody(PublishBodySchema, req);
    res.json(await social.publishNow(caller, body));
  });
};
