import { answeredAtOnce } from '../../actors/studio/intent-at-once';
import { errors } from '../../schemas/errors';
import { IntentStreamBodySchema } from '../../schemas/http/studio';
import type { RouteModule } from '../../src/http/app.types';
import { requireAccount } from '../../src/http/auth';
import { writeSseFirstThenRest } from '../../src/http/sse';
import { parseBody } from '../../src/http/validation';
import { fixedStreamEvents } from './fixed-events';

/** Where the front door alone answers (this benchmark's nodes only). */
export const FRONT_DOOR_PATH = '/bench/front-door/stream';

/**
 * The front door alone, the second reference of `bench:streams` (between the bare server and the
 * service's stream): `POST /bench/front-door/stream` comes in the way `POST
 * /api/studio/intent/stream` does (request context and fixed headers, the metrics layer, bearer
 * authentication with its idempotency layer, the account check, the JSON body and its schema, the
 * check that the message is answered at once) and answers with the same two writes
 * (`writeSseFirstThenRest`), the three events from fixed values: no record stored, no step run,
 * no admission. Its figures are what the service's stack costs before its own work begins.
 */
export const frontDoorRoute: RouteModule = (router, deps) => {
  router.post(FRONT_DOOR_PATH, deps.requireAuth, async (req, res) => {
    requireAccount(res, 'The front door reference takes an account token');
    const body = parseBody(IntentStreamBodySchema, req);
    if (!answeredAtOnce(body.message, deps.config)) {
      throw errors.validation('The front door reference takes a message answered at once');
    }
    const [first, ...rest] = fixedStreamEvents(body.message);
    await writeSseFirstThenRest(req, res, first, Promise.resolve(rest), { eventOf: (e) => e.type });
  });
};
