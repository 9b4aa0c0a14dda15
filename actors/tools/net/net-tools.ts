import type { z } from 'zod';
import {
  NetDnsResolveInputSchema,
  NetHttpDeleteInputSchema,
  NetHttpGetInputSchema,
  NetHttpPostInputSchema,
  NetHttpPutInputSchema,
} from '../../../schemas/tools/net-http';
import type { BuiltinPrimitive } from '../../../schemas/tools/primitives';
import type { EgressCallContext, HttpEgress } from './http-egress';

/** The network primitives, by their bare names. */
export type NetToolName = Extract<BuiltinPrimitive, `net_${string}`>;

/** One tool as the router sees it: its input schema and its call. */
export interface NetTool {
  description: string;
  inputSchema: z.ZodObject;
  call(input: unknown, context: EgressCallContext): Promise<unknown>;
}

/**
 * The `net_*` tools over one egress service. The router passes each call's raw input (validated
 * here), the calling agent's `allowedDomains` and the call's AbortSignal.
 */
export function createNetTools(egress: HttpEgress): Readonly<Record<NetToolName, NetTool>> {
  return Object.freeze({
    net_http_get: {
      description:
        'HTTP GET of an https URL; returns {status, headers, body, bodyEncoding, truncated, url, redirects}.',
      inputSchema: NetHttpGetInputSchema,
      call: (input, context) => egress.request('GET', input, context),
    },
    net_http_post: {
      description:
        'HTTP POST of a string or JSON body to an https URL; returns the response like net_http_get.',
      inputSchema: NetHttpPostInputSchema,
      call: (input, context) => egress.request('POST', input, context),
    },
    net_http_put: {
      description:
        'HTTP PUT of a string or JSON body to an https URL; returns the response like net_http_get.',
      inputSchema: NetHttpPutInputSchema,
      call: (input, context) => egress.request('PUT', input, context),
    },
    net_http_delete: {
      description: 'HTTP DELETE of an https URL; returns the response like net_http_get.',
      inputSchema: NetHttpDeleteInputSchema,
      call: (input, context) => egress.request('DELETE', input, context),
    },
    net_dns_resolve: {
      description:
        'Resolves a host name to its public addresses: {hostname, addresses: [{address, family}], withheld}.',
      inputSchema: NetDnsResolveInputSchema,
      call: (input, context) => egress.resolve(input, context),
    },
  });
}
