import { errors } from '../../../schemas/errors';
import {
  NET_HTTP_LIMITS,
  NetDnsResolveInputSchema,
  NetHttpDeleteInputSchema,
  NetHttpGetInputSchema,
  NetHttpPostInputSchema,
  NetHttpPutInputSchema,
  type NetHttpMethod,
} from '../../../schemas/tools/net-http';
import { defineTool, type ToolContext } from '../router/tool-declaration';
import type { EgressCallContext, HttpEgress } from './http-egress';

/**
 * The network primitives (docs/tool-net.md): the process's HTTP egress service
 * (`services.netEgress`), with the calling agent's `allowedDomains` and the call's AbortSignal.
 * Policy refusals are PERMISSION_DENIED (403); upstream 4xx/5xx answers are results.
 */

/** DNS, every hop and the body fit in the call's own timeout (at most 30 s); this is the margin. */
const EGRESS_SLACK_MS = 5_000;
const maxDurationMs = NET_HTTP_LIMITS.maxTimeoutMs + EGRESS_SLACK_MS;

function egressOf(ctx: ToolContext): HttpEgress {
  const egress = ctx.services.netEgress;
  if (!egress) throw errors.unavailable('Outbound HTTP is not available in this process');
  return egress;
}

const callContext = (ctx: ToolContext): EgressCallContext => {
  const progress = ctx.progress;
  return {
    allowedDomains: ctx.agent.allowedDomains,
    signal: ctx.signal,
    ...(progress
      ? {
          onBytes: (bytes: number, total: number | undefined) =>
            progress({ progress: bytes, ...(total ? { total } : {}), message: `${bytes} bytes received` }),
        }
      : {}),
  };
};

const request = (method: NetHttpMethod) => (input: unknown, ctx: ToolContext) =>
  egressOf(ctx).request(method, input, callContext(ctx));

export const netHttpGetTool = defineTool({
  name: 'net_http_get',
  description:
    "HTTP GET of an https URL (http:// with allowHttp), within the agent's allowedDomains; private and internal addresses are refused. Returns {status, statusText, headers, body, bodyEncoding, bytes, truncated, url, redirects}.",
  input: NetHttpGetInputSchema,
  mutating: false,
  maxDurationMs,
  run: request('GET'),
});

export const netHttpPostTool = defineTool({
  name: 'net_http_post',
  description:
    "HTTP POST of a string or JSON body to an https URL, within the agent's allowedDomains. Returns the response like net_http_get.",
  input: NetHttpPostInputSchema,
  mutating: true,
  maxDurationMs,
  run: request('POST'),
});

export const netHttpPutTool = defineTool({
  name: 'net_http_put',
  description:
    "HTTP PUT of a string or JSON body to an https URL, within the agent's allowedDomains. Returns the response like net_http_get.",
  input: NetHttpPutInputSchema,
  mutating: true,
  maxDurationMs,
  run: request('PUT'),
});

export const netHttpDeleteTool = defineTool({
  name: 'net_http_delete',
  description:
    "HTTP DELETE of an https URL, within the agent's allowedDomains. Returns the response like net_http_get.",
  input: NetHttpDeleteInputSchema,
  mutating: true,
  maxDurationMs,
  run: request('DELETE'),
});

export const netDnsResolveTool = defineTool({
  name: 'net_dns_resolve',
  description:
    "Resolves a host name (within the agent's allowedDomains) to the public addresses the HTTP tools could reach. Returns {hostname, addresses: [{address, family}], withheld}.",
  input: NetDnsResolveInputSchema,
  mutating: false,
  maxDurationMs,
  run: (input, ctx) => egressOf(ctx).resolve(input, callContext(ctx)),
});

export const netTools = [
  netHttpGetTool,
  netHttpPostTool,
  netHttpPutTool,
  netHttpDeleteTool,
  netDnsResolveTool,
] as const;
