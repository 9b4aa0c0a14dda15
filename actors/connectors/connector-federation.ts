import type { Principal } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import {
  CONNECTOR_FORWARDED_METHODS,
  type ConnectorForwardedMethod,
} from '../../schemas/messages/connectors';
import type { ActorSystemApi } from '../../src/kernel';

/**
 * The router's way to a connector's resources, prompts and completions (docs/connectors.md,
 * "Resources, prompts and completions"): one `connectors.forward` to the account's connectors actor
 * as the caller, so it works from any process and is governed and audited as a tool call is.
 */
export interface ConnectorCatalogClient {
  forward(
    accountId: string,
    slug: string,
    method: string,
    params: Record<string, unknown>,
    auth: Principal,
  ): Promise<Record<string, unknown>>;
}

const isForwarded = (method: string): method is ConnectorForwardedMethod =>
  (CONNECTOR_FORWARDED_METHODS as readonly string[]).includes(method);

export function createConnectorCatalog(system: Pick<ActorSystemApi, 'ask'>): ConnectorCatalogClient {
  return {
    async forward(accountId, slug, method, params, auth) {
      if (!isForwarded(method)) throw errors.validation(`Not a federated method: ${method.slice(0, 60)}`);
      // Another tenant's connectors are never reached, whatever a caller's bug asks for.
      if (auth.accountId !== accountId) throw errors.forbidden('Not allowed for this account');
      return system.ask<Record<string, unknown>>(
        `connectors:${accountId}`,
        'connectors.forward',
        { slug, method, params },
        { auth },
      );
    },
  };
}
