import { z } from 'zod';
import { displayNameSchema } from '../display-text';

/** `POST /oauth/register` (RFC 7591): what this server reads of a client's metadata. */
export const OAuthRegisterBodySchema = z.object({
  redirect_uris: z.array(z.string().min(1).max(2000)).min(1).max(10),
  client_name: displayNameSchema(200).optional(),
  grant_types: z.array(z.string().max(100)).max(10).optional(),
  response_types: z.array(z.string().max(100)).max(10).optional(),
  token_endpoint_auth_method: z.string().max(100).optional(),
  scope: z.string().max(1000).optional(),
});

/** The parameters of an authorization request (query of `GET`, form of `POST /oauth/authorize`). */
export const OAuthAuthorizeParamsSchema = z.object({
  response_type: z.string().max(100).optional(),
  client_id: z.string().max(200).optional(),
  redirect_uri: z.string().max(2000).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
  state: z.string().max(2000).optional(),
  scope: z.string().max(1000).optional(),
  resource: z.string().max(2000).optional(),
});
export type OAuthAuthorizeParams = z.infer<typeof OAuthAuthorizeParamsSchema>;

/** `POST /oauth/token` (form): the two grants. */
export const OAuthTokenBodySchema = z.discriminatedUnion('grant_type', [
  z.object({
    grant_type: z.literal('authorization_code'),
    code: z.string().min(1).max(200),
    redirect_uri: z.string().min(1).max(2000),
    client_id: z.string().min(1).max(200),
    code_verifier: z
      .string()
      .regex(/^[A-Za-z0-9\-._~]{43,128}$/, 'code_verifier must be 43-128 unreserved characters'),
    resource: z.string().max(2000).optional(),
  }),
  z.object({
    grant_type: z.literal('refresh_token'),
    refresh_token: z.string().min(1).max(200),
    client_id: z.string().min(1).max(200),
    resource: z.string().max(2000).optional(),
    scope: z.string().max(1000).optional(),
  }),
]);
export type OAuthTokenBody = z.infer<typeof OAuthTokenBodySchema>;

/**
 * `POST /oauth/revoke` (RFC 7009), form or JSON. `client_id` authenticates the public client as at
 * the token endpoint; its absence is `invalid_client`, checked before the token.
 */
export const OAuthRevokeBodySchema = z.object({
  token: z.string().min(1).max(8000),
  token_type_hint: z.string().max(100).optional(),
  client_id: z.string().min(1).max(200),
});
export type OAuthRevokeBody = z.infer<typeof OAuthRevokeBodySchema>;
