import { createHttpEgressFromConfig, type HttpEgress } from '../../actors/tools/net/http-egress';
import type { Config } from '../config/load-config';
import type { Logger } from '../logging/logger';
import { telemetry } from '../telemetry/tracing';

/**
 * The process's HTTP egress service (`net_*` tools), created on first use (loopback targets only
 * when `ALLOW_LOOPBACK_HTTP`, tests). One per process: `abortAll` (the panic button) reaches every
 * call it runs. Calls share nothing, so there is nothing to close.
 */
export function createLazyHttpEgress(
  config: Pick<Config, 'ALLOW_LOOPBACK_HTTP'>,
  logger: Logger,
): HttpEgress {
  let egress: HttpEgress | undefined;
  const get = () => (egress ??= createHttpEgressFromConfig(config, logger));
  return {
    request: (method, input, context) => {
      const tracer = telemetry.tracer;
      if (!tracer) return get().request(method, input, context);
      // The method only: the URL may carry the caller's secrets (a token in the query string).
      return tracer.inSpan(
        `HTTP ${method}`,
        { kind: 'client', attributes: { 'http.request.method': method } },
        () => get().request(method, input, context),
      );
    },
    resolve: (input, context) => get().resolve(input, context),
    abortAll: (reason) => egress?.abortAll(reason) ?? 0,
    stats: () => egress?.stats() ?? { inFlight: 0 },
  };
}
