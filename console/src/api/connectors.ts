import { api, call } from './http';

/**
 * `/api/connectors` (docs/connectors.md) and `/api/sdk/credentials` (docs/vault.md): both typed by
 * their contracts. A connector's header and env values never come back to the page: the list
 * shows their names only, even where the API shows a non-secret value.
 */

type ConnectorAnswer = Awaited<ReturnType<typeof connectors.get>>;
export type Connector = ConnectorAnswer['connector'];

export interface NewHttpConnector {
  transport: 'http';
  slug: string;
  name?: string;
  url: string;
  headers?: Record<string, string>;
}

export interface NewStdioConnector {
  transport: 'stdio';
  slug: string;
  name?: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

export const connectors = {
  list: () => call(api.GET('/api/connectors')),
  get: (slug: string) => call(api.GET('/api/connectors/{slug}', { params: { path: { slug } } })),
  create: (body: NewHttpConnector | NewStdioConnector) => call(api.POST('/api/connectors', { body })),
  refresh: (slug: string) => call(api.POST('/api/connectors/{slug}/refresh', { params: { path: { slug } } })),
  setEnabled: (slug: string, enabled: boolean) =>
    call(api.PATCH('/api/connectors/{slug}', { params: { path: { slug } }, body: { enabled } })),
  remove: (slug: string) => call(api.DELETE('/api/connectors/{slug}', { params: { path: { slug } } })),
};

type CredentialList = Awaited<ReturnType<typeof credentials.list>>;
export type RuntimeCredential = CredentialList['credentials'][number];
export const SDK_SCOPES = ['vault:consume', 'vault:cleanup'] as const;
export type SdkScope = (typeof SDK_SCOPES)[number];

export const credentials = {
  list: () => call(api.GET('/api/sdk/credentials')),
  create: (input: { name: string; scopes?: SdkScope[]; workspaceId?: string; expiresAt?: string }) =>
    call(api.POST('/api/sdk/credentials', { body: input })),
  revoke: (credentialId: string) => call(api.DELETE('/api/sdk/credentials', { body: { credentialId } })),
};
