/** The service as an OAuth 2.1 authorization server for MCP clients (docs/oauth.md). */
export { oauthCollections } from './oauth.collection';
export { oauthAuthorizeRoute } from './oauth-authorize.route';
export { oauthServerRoute, AS_METADATA_PATH } from './oauth-server.route';
export { oauthRevokeRoute } from './oauth-revoke.route';
