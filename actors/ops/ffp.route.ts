import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { FfpState } from '../../schemas/http/ffp';
import type { RouteModule } from '../../src/http/app.types';

const PATH = '/api/ffp/temp';

/**
 * The FFP compatibility feature is disabled in this version and all runtime execution bypasses
 * it: `route: 'direct'` means tools run directly, never through FFP.
 */
export const FFP_STATE: FfpState = Object.freeze({ enabled: false, status: 'disabled', route: 'direct' });

const readOnly = (method: string) => method === 'GET' || method === 'HEAD';

/** The spec's answer to any attempt to change the feature: always 405, whatever the body. */
const refuseChange: RequestHandler = (_req, res) => {
  res.status(405).set('Allow', 'GET').json({
    error: 'The FFP compatibility feature is disabled in this version and cannot be changed',
    enabled: false,
    status: FFP_STATE.status,
  });
};

/**
 * `GET /api/ffp/temp` (SB auth) reports the feature; `PATCH` (and any other method but OPTIONS)
 * answers 405 with `Allow: GET` without looking at the body or the caller, as the spec requires
 * ("always"). A body that does not even parse gets the same 405, not the usual 400.
 */
export const ffpRoute: RouteModule = (router, deps) => {
  router.get(PATH, deps.requireAuth, (_req, res) => {
    res.json(FFP_STATE);
  });
  router.all(PATH, (req, res, next) => {
    if (req.method === 'OPTIONS') next();
    else refuseChange(req, res, next);
  });
  // Body parsing runs before routing; its errors travel down the router to here.
  const refuseChangeOnBodyError: ErrorRequestHandler = (err, req, res, next) => {
    // `use` matches by prefix; only the exact path (remainder '/') is ours.
    if (req.path !== '/' || readOnly(req.method) || req.method === 'OPTIONS') next(err);
    else refuseChange(req, res, next);
  };
  router.use(PATH, refuseChangeOnBodyError);
};
