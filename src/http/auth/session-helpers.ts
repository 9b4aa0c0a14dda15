import type { Request, Response } from 'express';
import { errors } from '../../../schemas/errors';
import { isSameOrigin } from './origin';
import type { RequestHandler } from 'express';
import './session-data';

function sessionOf(req: Request) {
  // Without the session middleware (an app built without services) there is no way to sign in.
  if (!req.session) throw errors.unavailable('Browser sessions are not available');
  return req.session;
}

/**
 * Signs the browser in as `accountId`: a new session id (regenerate: an id planted before sign-in
 * is worthless after it, no fixation), saved before the answer so the cookie works at once.
 */
export async function startSession(req: Request, accountId: string): Promise<void> {
  const current = sessionOf(req);
  await new Promise<void>((resolve, reject) => current.regenerate((err) => (err ? reject(err) : resolve())));
  req.session.accountId = accountId;
  req.session.signedInAt = Date.now();
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

/** Ends the browser session (store entry destroyed) and clears the cookie, with or without one. */
export async function endSession(req: Request, res: Response, cookieName: string): Promise<void> {
  const current = req.session;
  if (current) {
    await new Promise<void>((resolve, reject) => current.destroy((err) => (err ? reject(err) : resolve())));
  }
  const { secure, sameSite, httpOnly, path } = current?.cookie ?? {};
  res.clearCookie(cookieName, {
    path: path ?? '/',
    httpOnly: httpOnly ?? true,
    sameSite: (sameSite as 'lax' | undefined) ?? 'lax',
    secure: secure === true,
  });
}

/**
 * Refuses (403) a request whose `Origin`/`Referer` names another site, whoever the caller: for
 * routes that start a browser session (signup, signin), where a forged cross-site form would sign
 * the victim into the attacker's account (login CSRF). Clients without those headers pass.
 */
export function requireSameOrigin(publicBaseUrl: string): RequestHandler {
  return (req, _res, next) => {
    if (isSameOrigin(req, publicBaseUrl)) next();
    else next(errors.forbidden('Cross-origin request refused'));
  };
}
