import { errors } from '../../schemas/errors';
import { IntentStreamBodySchema, StudioCommandBodySchema } from '../../schemas/http/studio';
import type { RouteModule } from '../../src/http/app.types';
import { requireAccount } from '../../src/http/auth';
import { FairGate } from '../../src/http/fair-gate';
import { IdleLane } from '../../src/http/idle-lane';
import { writeSse, writeSseFirstThenRest } from '../../src/http/sse';
import type { CachePort } from '../../src/store/cache';
import { parseBody } from '../../src/http/validation';
import type { ExecutionsService } from '../executions/executions';
import { answeredAtOnce, openIntentAtOnce } from './intent-at-once';
import { openIntentStream } from './intent-stream';
import { runStudioCommand, type StudioEnv } from './studio';

/** What the Studio routes read from the process's services. */
interface StudioRouteServices {
  readonly studio: StudioEnv;
  readonly executions: ExecutionsService;
  readonly cache: CachePort;
}

/** Studio commands and chat belong to an operator account (a self-registered agent has none: 403). */
const ACCOUNT_ONLY =
  'Executions and notifications belong to an operator account: use an account session or token';

/**
 * `POST /api/studio/command` (docs/studio.md): one strict Studio command. 200 with `kind` for
 * every command-level outcome (errors included); 400 for a malformed body; 401/403 for the caller
 * (a self-registered agent has no account: 403).
 *
 * `POST /api/studio/intent/stream`: one chat message, as a CHAT_EXECUTION, streamed as SSE
 * (intent-stream.ts; read-only intents answered at once on this node: intent-at-once.ts).
 */
/**
 * Intents answered at once that one account runs at the same moment on this node; more wait in
 * that account's queue, so a burst of one client never delays another client's first event. Each
 * wave of them waits for one round trip to the document server (their records, coalesced into one
 * insert): over RabbitMQ, with the document server in a process of its own, waves of 64 made a
 * burst of 1,000 wait for sixteen round trips; 256 cut its first-event p99 by about a fifth, while
 * another client's stream during it still got its first event within about 120 ms (docs/studio.md,
 * eighth pass).
 */
const AT_ONCE_PER_ACCOUNT = 256;

const eventName = (e: { type: string }) => e.type;

export const studioRoute: RouteModule<StudioRouteServices> = (router, deps) => {
  const admission = new FairGate(AT_ONCE_PER_ACCOUNT);
  // The rest of a stream answered at once waits behind the first events of newer ones.
  const later = new IdleLane();

  router.post('/api/studio/command', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, ACCOUNT_ONLY);
    const body = parseBody(StudioCommandBodySchema, req);
    res.json(await runStudioCommand(servicesOf(deps).studio, caller, body));
  });

  router.post('/api/studio/intent/stream', deps.requireAuth, async (req, res) => {
    const caller = requireAccount(res, ACCOUNT_ONLY);
    const body = parseBody(IntentStreamBodySchema, req);
    const services = servicesOf(deps);
    // A read-only intent that needs nothing but this node is answered here, without a worker hop:
    // its first event as soon as its record is stored, the rest once the newer streams have theirs.
    if (answeredAtOnce(body.message, services.executions.services.config)) {
      const opened = await later.first(() =>
        admission.run(caller.accountId, () => openIntentAtOnce(services.executions, caller, body)),
      );
      // Started now, whether or not the client stays: the execution runs to its end regardless.
      const rest = later.run(() => opened.finish());
      await writeSseFirstThenRest(req, res, opened.first, rest, { eventOf: eventName });
      return;
    }
    const events = await openIntentStream(
      { system: deps.system, executions: services.executions, cache: services.cache },
      caller,
      body,
      res,
    );
    await writeSse(req, res, events, { eventOf: eventName });
  });
};

function servicesOf<S>(deps: { services?: S }): S {
  if (!deps.services) throw errors.unavailable('The Studio is not available on this node');
  return deps.services;
}
