import type { RequestHandler, Response } from 'express';
import { principalOf } from './auth/require-auth.middleware';
import { IdempotencyKeeper, type IdempotentTurn } from './idempotency/idempotency-keeper';
import {
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyScope,
  parseIdempotencyKey,
  requestFingerprint,
} from './idempotency/idempotency-key';

/** Methods whose requests take a key; reads change nothing and never need one. */
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Headers of an answer that are kept with it (the fixed ones are set again on the replay). */
const KEPT_HEADERS = ['content-type', 'location'];

/** An answer as kept for retries. */
export interface KeptHttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * What a route says about its keys, in `res.locals.idempotency`, set by the markers below placed
 * before `requireAuth`:
 * - `route`: the route reads keys itself through `deps.idempotency` (`POST /mcp` keeps tool
 *   outcomes, whatever the dialect);
 * - `secret`: a successful answer carries a secret shown once (a token, a credential): it is not
 *   kept; a retry learns that the request ran (409 IDEMPOTENCY_OUTCOME_NOT_KEPT), never the secret.
 */
export type IdempotencyMode = 'route' | 'secret';

/** Marks a route that handles `Idempotency-Key` itself: the front door's middleware stands aside. */
export const idempotencyByRoute: RequestHandler = (_req, res, next) => {
  res.locals.idempotency = 'route' satisfies IdempotencyMode;
  next();
};

/** Marks a route whose successful answer carries a one-time secret: it is never kept. */
export const secretAnswer: RequestHandler = (_req, res, next) => {
  res.locals.idempotency = 'secret' satisfies IdempotencyMode;
  next();
};

/**
 * `Idempotency-Key` on the mutating routes (docs/http.md, "Idempotent retries"). Runs right after
 * authentication (`buildApp` chains it into `requireAuth`), so keys are scoped per caller:
 *
 * - no key, a read, or a route that handles keys itself: nothing to do;
 * - a malformed key: 400;
 * - the first request with the key: it runs, and its answer is kept before it is sent (so a
 *   client that lost the connection finds it on retry). 5xx and 429 answers are not kept: the
 *   claim is released and a retry runs again;
 * - a retry with the same method, path and body: the first answer again, with
 *   `Idempotent-Replayed: true`, after waiting for the first if it is still running;
 * - the same key on another request: 409 IDEMPOTENCY_KEY_REUSED.
 */
export function idempotencyMiddleware(keeper: IdempotencyKeeper): RequestHandler {
  return (req, res, next) => {
    const raw = req.headers['idempotency-key'];
    if (raw === undefined || !MUTATING.has(req.method) || res.locals.idempotency === 'route') {
      next();
      return;
    }
    let call;
    try {
      call = {
        scope: idempotencyScope(principalOf(res)),
        key: parseIdempotencyKey(raw),
        // The whole URL: a DELETE names its target in the query string. A body the JSON parser
        // did not read (another content type) counts by its type and length.
        fingerprint: requestFingerprint([
          req.method,
          req.originalUrl,
          req.body === undefined
            ? ['unparsed', req.headers['content-type'], req.headers['content-length']]
            : req.body,
        ]),
      };
    } catch (err) {
      next(err);
      return;
    }
    keeper.begin(call).then((begun) => {
      if (begun.replay) {
        replay(res, begun.replay.outcome as KeptHttpAnswer);
        return;
      }
      recordAnswer(res, begun.turn);
      next();
    }, next);
  };
}

function replay(res: Response, answer: KeptHttpAnswer): void {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  res.end(answer.body);
}

type EndArgs = Parameters<Response['end']>;

/**
 * Catches the answer on its way out: `res.end` is wrapped for this response, the outcome recorded,
 * then the answer sent. An answer streamed with `res.write` is not kept (it ran; a retry gets 409).
 */
function recordAnswer(res: Response, turn: IdempotentTurn): void {
  const { write, end } = res;
  let streamed = false;
  let ended = false;
  // A stream cut off after it started (an error mid-stream destroys the response) never reaches
  // `end`: it ran all the same.
  res.once('close', () => {
    if (streamed && !ended) void turn.notKept({ status: res.statusCode, reason: 'stream' });
  });
  res.write = function (this: Response, ...args: Parameters<Response['write']>) {
    streamed = true;
    return write.apply(this, args);
  } as Response['write'];
  res.end = function (this: Response, ...args: EndArgs) {
    ended = true;
    res.write = write;
    res.end = end;
    // `settle` never rejects (a store failure is logged by the turn); anything unexpected here
    // releases the claim rather than hold the answer back.
    const finished = new Promise<void>((resolve) => resolve(settle(res, turn, streamed, args))).catch(() =>
      turn.release(),
    );
    // The outcome is recorded before the answer leaves: an answer the client saw is always kept.
    void finished.then(() => end.apply(res, args));
    return res;
  } as Response['end'];
}

function settle(res: Response, turn: IdempotentTurn, streamed: boolean, args: EndArgs): Promise<void> {
  const status = res.statusCode;
  if (!IdempotencyKeeper.isFinal(status)) return turn.release();
  if (streamed) return turn.notKept({ status, reason: 'stream' });
  if (res.locals.idempotency === 'secret' && status < 300) return turn.notKept({ status, reason: 'secret' });
  const chunk = typeof args[0] === 'function' ? undefined : (args[0] as unknown);
  const body =
    chunk === undefined || chunk === null
      ? ''
      : typeof chunk === 'string'
        ? chunk
        : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array
          ? Buffer.from(chunk).toString('utf8')
          : undefined;
  const contentType = String(res.getHeader('content-type') ?? '');
  if (body === undefined || (body !== '' && !/json|^text\//i.test(contentType))) {
    return turn.notKept({ status, reason: 'not_json' });
  }
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return turn.keep({ status, headers, body } satisfies KeptHttpAnswer, status);
}
