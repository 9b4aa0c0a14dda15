/**
 * A connection URL safe to log or show: the user-info part (`user:password@`) is replaced with
 * `***@`, whatever characters the password holds. Strings that are not URLs come back unchanged.
 */
export function redactUrl(url: string): string {
  const schemeEnd = url.indexOf('://');
  if (schemeEnd === -1) return url;
  const authorityStart = schemeEnd + 3;
  // User info ends at the last '@' before the query: a password may hold '@', '/' or ':'.
  const queryStart = url.indexOf('?', authorityStart);
  const head = queryStart === -1 ? url : url.slice(0, queryStart);
  const at = head.lastIndexOf('@');
  if (at < authorityStart) return url;
  return `${url.slice(0, authorityStart)}***@${url.slice(at + 1)}`;
}
