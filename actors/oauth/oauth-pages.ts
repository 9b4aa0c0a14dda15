import type { Response } from 'express';
import type { OAuthAuthorizeParams } from '../../schemas/http/oauth';

/**
 * The minimal server-rendered pages of `/oauth/authorize` (until the web console serves them):
 * sign in, consent, and an error that must not go back to an unverified redirect URI. No script,
 * inline style only (their own Content-Security-Policy), every value escaped.
 */

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#222}' +
  'label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;box-sizing:border-box}' +
  'button{margin:1rem .5rem 0 0;padding:.5rem 1rem}.muted{color:#666;font-size:.9rem}.error{color:#b00}';

function send(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .setHeader('Cache-Control', 'no-store')
    .setHeader(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    )
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
        `<title>${escape(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`,
    );
}

/** The request's parameters, carried through the sign-in form. */
function hidden(params: OAuthAuthorizeParams): string {
  return Object.entries(params)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
    .join('');
}

export function signInPage(
  res: Response,
  clientName: string,
  params: OAuthAuthorizeParams,
  error?: string,
): void {
  send(
    res,
    error ? 401 : 200,
    'Sign in',
    `<h1>Sign in</h1><p><strong>${escape(clientName)}</strong> wants to use your tools through MCP.</p>` +
      (error ? `<p class="error">${escape(error)}</p>` : '') +
      `<form method="post" action="/oauth/authorize">${hidden(params)}<input type="hidden" name="op" value="signin">` +
      `<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>` +
      `<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>` +
      `<button type="submit">Sign in</button></form>`,
  );
}

export function consentPage(res: Response, clientName: string, redirectUri: string, consentId: string): void {
  send(
    res,
    200,
    'Allow access',
    `<h1>Allow access?</h1><p><strong>${escape(clientName)}</strong> asks to call your tools on <code>/mcp</code> ` +
      `as your account (scope <code>mcp_connector</code>).</p>` +
      `<p class="muted">It will be sent back to ${escape(redirectUri)}. A named token "MCP: ${escape(clientName)} …" ` +
      `appears in your bearer tokens; revoke it there to end the access.</p>` +
      `<form method="post" action="/oauth/authorize"><input type="hidden" name="consent" value="${escape(consentId)}">` +
      `<button type="submit" name="op" value="approve">Allow</button><button type="submit" name="op" value="deny">Deny</button></form>`,
  );
}

export function errorPage(res: Response, status: number, message: string): void {
  send(
    res,
    status,
    'Authorization failed',
    `<h1>Authorization failed</h1><p class="error">${escape(message)}</p>`,
  );
}
