import { ClaimsSealer } from '../../actors/identity/sealed-claims';

/**
 * The claims of a token of the service, sealed ones included (actors/identity/sealed-claims.ts).
 * Tests only: a client cannot read `sub` in a token; a test that needs the internal id behind a
 * token opens it with the runtime's secret (`runtime.secrets.jwtSecret`).
 */
export function claimsOf(token: string, jwtSecret: string): Record<string, unknown> {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  const claims = new ClaimsSealer(jwtSecret).claimsOf(payload);
  if (!claims) throw new Error('not a token of this secret');
  return claims;
}

/** The internal subject (`acc_…`, `agt_…`) of a token of the service. */
export function subjectOf(token: string, jwtSecret: string): string {
  const sub = claimsOf(token, jwtSecret).sub;
  if (typeof sub !== 'string') throw new Error('token without a subject');
  return sub;
}
