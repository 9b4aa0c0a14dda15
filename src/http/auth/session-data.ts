/**
 * What the service keeps in a browser session (express-session's `req.session`). Imported for
 * its type augmentation by every file that reads or writes the session.
 */
declare module 'express-session' {
  interface SessionData {
    /** Internal id of the signed-in account (never sent to the browser: the cookie holds the sid only). */
    accountId: string;
    /** Epoch ms of the sign-in that created this session. */
    signedInAt: number;
  }
}

declare module 'express-serve-static-core' {
  interface Locals {
    /**
     * Epoch ms at which the credential of this request expires (bearer: the token's `exp`;
     * session: the cookie's current expiry). Set by `requireAuth`/`optionalAuth`.
     */
    authExpiresAt?: number;
  }
}

export {};
