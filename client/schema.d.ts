/**
 * The types of the service's HTTP API, generated from its OpenAPI document (GET /openapi.json)
 * by `npm run client:generate`. Do not edit: change a route's contract and generate again
 * (docs/openapi.md).
 */

export interface paths {
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An MCP session's event stream: `notifications/resources/updated` for its subscriptions
         * @description For the 2025 eras' `resources/subscribe`: with `Accept: text/event-stream` (and the `Mcp-Session-Id` `initialize` gave, if any), a stream that stays open and carries one `notifications/resources/updated {uri}` each time a subscribed file of the caller is written, renamed or deleted, on any node. Without that Accept: 405.
         */
        get: operations["getMcp"];
        put?: never;
        /**
         * The tool router: MCP (JSON-RPC 2.0, one message or a batch) or `{tool, input}`
         * @description Two dialects on one path, told apart by the body. With `jsonrpc: "2.0"` it is MCP over Streamable HTTP (stateless, JSON answers): `initialize`, `tools/list`, `tools/call`, `resources/*`, `prompts/*`, `ping`…; JSON-RPC errors come inside a 200 answer, a notification gets 202. Any other body is the service's own dialect `{tool, input}` answering `{success: true, result}` or an error body. An `Idempotency-Key` header (or `params._meta` key) makes a tools/call run once.
         */
        post: operations["postMcp"];
        /** Ends an MCP session: the subscriptions of its `Mcp-Session-Id` are dropped */
        delete: operations["deleteMcp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tool registry (with the caller’s connector tools when signed in) */
        get: operations["getTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth protected-resource metadata of /mcp (RFC 9728) */
        get: operations["getWellKnownOauthProtectedResourceMcp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth protected-resource metadata (root form, for older MCP clients) */
        get: operations["getWellKnownOauthProtectedResource"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ffp/routes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent tool-call route records and per-primitive counts */
        get: operations["getApiFfpRoutes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service health (`dependencies` for an ops admin); 503 when the actors cannot be reached */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/livez": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness probe */
        get: operations["getLivez"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness probe: 503 while a dependency is not up */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ffp/temp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The FFP compatibility feature: always disabled, tools run directly */
        get: operations["getApiFfpTemp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Always 405: the FFP feature cannot be changed (any method but GET) */
        patch: operations["patchApiFfpTemp"];
        trace?: never;
    };
    "/api/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account (starts a browser session and returns its first credentials) */
        post: operations["postApiSignup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/signin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with email and password (starts a browser session) */
        post: operations["postApiSignin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask for a password reset mail (same answer whether the account exists or not) */
        post: operations["postApiForgotPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/forgot-password/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with the mailed token (ends every session of the account) */
        post: operations["postApiForgotPasswordConfirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plans/transition": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change plan (free during the beta) */
        post: operations["postApiPlansTransition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who is calling: `{authenticated: false}` for an anonymous caller */
        get: operations["getApiSession"];
        put?: never;
        post?: never;
        /** Sign out (clears the session cookie; a success when already signed out) */
        delete: operations["deleteApiSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/session/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mint an account bearer token from the session */
        post: operations["postApiSessionToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/session/from-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn an account bearer token into a one-time browser login link */
        post: operations["postApiSessionFromKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/session/from-key/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The one-time login link: sets the session cookie and redirects */
        get: operations["getApiSessionFromKeyCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Self-register an agent (returns its key once) */
        post: operations["postRegister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The calling agent's registration record */
        get: operations["getAgentMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's deployed agents and subagents */
        get: operations["getApiAgents"];
        put?: never;
        /** Deploy an agent or subagent (its key is returned once) */
        post: operations["postApiAgents"];
        delete?: never;
        options?: never;
        head?: never;
        /** Change an agent's allowed tools, domains or status */
        patch: operations["patchApiAgents"];
        trace?: never;
    };
    "/api/bearer-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's named tokens (values never shown again) */
        get: operations["getApiBearerTokens"];
        put?: never;
        /** Create a named token with scopes (the value is revealed once) */
        post: operations["postApiBearerTokens"];
        /** Revoke a token (`{id}` as body or `?id=`) */
        delete: operations["deleteApiBearerTokens"];
        options?: never;
        head?: never;
        /** Rotate (new value revealed once), rename, rescope or revoke a token */
        patch: operations["patchApiBearerTokens"];
        trace?: never;
    };
    "/api/connectors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's MCP connectors */
        get: operations["getApiConnectors"];
        put?: never;
        /** Add a connector (an MCP server over HTTP, its credentials sealed) */
        post: operations["postApiConnectors"];
        /** Remove a connector (`?slug=`) */
        delete: operations["deleteApiConnectors"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One connector */
        get: operations["getApiConnectorsBySlug"];
        put?: never;
        post?: never;
        /** Remove a connector */
        delete: operations["deleteApiConnectorsBySlug"];
        options?: never;
        head?: never;
        /** Change a connector */
        patch: operations["patchApiConnectorsBySlug"];
        trace?: never;
    };
    "/api/connectors/{slug}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Read the connector's tool list again */
        post: operations["postApiConnectorsBySlugRefresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's executions, newest first, filtered (status, source, workspace…) */
        get: operations["getApiExecutions"];
        put?: never;
        /** Start an execution (a demo or a list of steps) */
        post: operations["postApiExecutions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One execution with its steps and logs */
        get: operations["getApiExecutionsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause, resume, retry, cancel or roll back an execution */
        post: operations["postApiExecutionsByIdActions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An execution's events as Server-Sent Events (log lines, status); resumes with Last-Event-ID */
        get: operations["getApiExecutionsByIdEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/recovery": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Failed and cancelled executions that can be resumed, retried or rolled back */
        get: operations["getApiRecovery"];
        put?: never;
        /** Resume, retry, cancel or roll back a failed execution */
        post: operations["postApiRecovery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/panic": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workspace's lockdown state */
        get: operations["getApiPanic"];
        put?: never;
        /** Panic: cancel every running execution of a workspace and lock it down */
        post: operations["postApiPanic"];
        /** Lift a workspace's lockdown (`workspaceId` in the body or the query) */
        delete: operations["deleteApiPanic"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's notifications, newest first */
        get: operations["getApiNotifications"];
        put?: never;
        /** Create (`{title…}`), change status (`{notificationId, status}`) or mark all read (`{action}`) */
        post: operations["postApiNotifications"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/studio/command": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a Studio command (changes answer a preview first; send it back with its confirmToken) */
        post: operations["postApiStudioCommand"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/studio/intent/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a message; the answer streams as Server-Sent Events: execution, reply, error, done */
        post: operations["postApiStudioIntentStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The skill catalog: search, category, author, sort, pages */
        get: operations["getApiSkills"];
        put?: never;
        /** Publish a skill or a new version (enterprise accounts) */
        post: operations["postApiSkills"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/discovery": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Rows of skills (popular, featured, recent…), categories and the caller’s installed slugs */
        get: operations["getApiSkillsDiscovery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/{id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A skill with its params schemas and examples of a use (HTTP and MCP) */
        get: operations["getApiSkillsByIdPreview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/install": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Install a skill (and its required dependencies), approving its permissions */
        post: operations["postApiSkillsInstall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/use": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a capability of an installed skill (recorded as an execution) */
        post: operations["postApiSkillsUse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/{id}/rating": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rate an installed skill (1 to 5 stars) */
        post: operations["postApiSkillsByIdRating"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/installed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's installed skills */
        get: operations["getApiSkillsInstalled"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/{id}/installation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Enable, disable or change the approved permissions of an installation */
        patch: operations["patchApiSkillsByIdInstallation"];
        trace?: never;
    };
    "/api/developers/{handle}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A developer's public profile with its skills and apps */
        get: operations["getApiDevelopersByHandle"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The app catalog: search, category, sort, pages */
        get: operations["getApiApps"];
        put?: never;
        /** Publish an app or a new version (kept versions) */
        post: operations["postApiApps"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/discovery": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Rows of apps for the store front (with the caller’s installs when signed in) */
        get: operations["getApiAppsDiscovery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One app with its versions and manifest */
        get: operations["getApiAppsBySlug"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{slug}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An app's package for a device */
        get: operations["getApiAppsBySlugDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/installed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's installed apps */
        get: operations["getApiAppsInstalled"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Installed apps with a newer version */
        get: operations["getApiAppsUpdates"];
        put?: never;
        /** Update every installed app that can be updated */
        post: operations["postApiAppsUpdates"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/install": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Install an app, approving its permissions */
        post: operations["postApiAppsInstall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{slug}/readiness": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether an installed app can run, and what is missing (secrets, skills, permissions) */
        get: operations["getApiAppsBySlugReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{slug}/installation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Uninstall an app */
        delete: operations["deleteApiAppsBySlugInstallation"];
        options?: never;
        head?: never;
        /** Favourite, disable or change the approved permissions of an installation */
        patch: operations["patchApiAppsBySlugInstallation"];
        trace?: never;
    };
    "/api/apps/{slug}/open": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Open an installed app on a target (web, android, ios); refused while not ready */
        post: operations["postApiAppsBySlugOpen"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{slug}/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Go back to the previously installed version */
        post: operations["postApiAppsBySlugRollback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/library": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's library: each app it installed, in the workspace of its install, with the devices it is on */
        get: operations["getApiAppsLibrary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's app activity (installs, updates, rollbacks, device installs), newest first */
        get: operations["getApiAppsActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{slug}/device-install": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Install an installed app on a device target (android, ios, desktop, pwa) */
        post: operations["postApiAppsBySlugDeviceInstall"];
        /** Remove a device install (target in the query or body); ownership is kept */
        delete: operations["deleteApiAppsBySlugDeviceInstall"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{slug}/rating": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rate an installed app (1 to 5 stars; again replaces the rating) */
        post: operations["postApiAppsBySlugRating"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vault": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Secrets of the account or a workspace (masked) */
        get: operations["getApiVault"];
        put?: never;
        /** Store a secret (its value is sealed and never shown again) */
        post: operations["postApiVault"];
        /** Delete a secret (`secretId` as a JSON body or as query parameters) */
        delete: operations["deleteApiVault"];
        options?: never;
        head?: never;
        /** Rotate a secret (new value), or disable / enable it */
        patch: operations["patchApiVault"];
        trace?: never;
    };
    "/api/vault/assignments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Assignments of the secrets */
        get: operations["getApiVaultAssignments"];
        put?: never;
        /** Assign a secret to an agent, a skill or an app */
        post: operations["postApiVaultAssignments"];
        /** Remove an assignment (as a JSON body or as query parameters) */
        delete: operations["deleteApiVaultAssignments"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vault/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who used which secret, when (never the values) */
        get: operations["getApiVaultAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vault/access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask for a one-use runtime grant to a secret */
        post: operations["postApiVaultAccess"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vault/runtime-grants/consume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Consume a grant (the value, once) or clean it up, with a runtime credential */
        post: operations["postApiVaultRuntimeGrantsConsume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sdk/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's runtime credentials (masked) */
        get: operations["getApiSdkCredentials"];
        put?: never;
        /** Create a runtime credential (`sdk_…`, revealed once) */
        post: operations["postApiSdkCredentials"];
        /** Revoke a runtime credential (as a JSON body or as query parameters) */
        delete: operations["deleteApiSdkCredentials"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List files; `action=preview` or `action=summarize` with a `path` reads one */
        get: operations["getApiFiles"];
        put?: never;
        /** Create or replace a file (utf8 text or base64) */
        post: operations["postApiFiles"];
        /** Delete a file (or an empty directory) */
        delete: operations["deleteApiFiles"];
        options?: never;
        head?: never;
        /** Rename (move) a file */
        patch: operations["patchApiFiles"];
        trace?: never;
    };
    "/api/memory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Memory entries the caller may see (`export=1`: all of them as an export) */
        get: operations["getApiMemory"];
        put?: never;
        /** Write an entry (201 when new, 200 when replaced) */
        post: operations["postApiMemory"];
        /** Delete an entry */
        delete: operations["deleteApiMemory"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspaces the caller belongs to */
        get: operations["getApiWorkspaces"];
        put?: never;
        /** Create a workspace */
        post: operations["postApiWorkspaces"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{workspaceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One workspace with its members and pending invitations */
        get: operations["getApiWorkspacesByWorkspaceId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{workspaceId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add the owner's agent (201) or invite someone by email or agent (202) */
        post: operations["postApiWorkspacesByWorkspaceIdMembers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{workspaceId}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation */
        delete: operations["deleteApiWorkspacesByWorkspaceIdInvitationsByInvitationId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspace-invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Invitations the caller received */
        get: operations["getApiWorkspaceInvitations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspace-invitations/{invitationId}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invitation to a workspace */
        post: operations["postApiWorkspaceInvitationsByInvitationIdAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspace-invitations/{invitationId}/decline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Decline an invitation to a workspace */
        post: operations["postApiWorkspaceInvitationsByInvitationIdDecline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{workspaceId}/members/{memberId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member */
        delete: operations["deleteApiWorkspacesByWorkspaceIdMembersByMemberId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/crew": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Crew coverage of the duties (details for ops admins) */
        get: operations["getApiOpsCrew"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/crew/bootstrap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Seed what a fresh deployment needs (ops admin) */
        post: operations["postApiOpsCrewBootstrap"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/crew/failover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Move a duty to its standby node (ops admin) */
        post: operations["postApiOpsCrewFailover"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/crew/cron": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run the periodic duties now (a scheduler calls it) */
        post: operations["postApiOpsCrewCron"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Throughput, error rates and executions by status (percentiles per route for ops admins) */
        get: operations["getApiOpsMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics of this node (`METRICS=off` removes the route) */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization server metadata (RFC 8414) */
        get: operations["getWellKnownOauthAuthorizationServer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dynamic client registration (RFC 7591): public clients with exact redirect URIs */
        post: operations["postOauthRegister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization request (PKCE S256 only): the sign-in or consent page */
        get: operations["getOauthAuthorize"];
        put?: never;
        /** The sign-in or consent form: redirects to the client with a single-use code */
        post: operations["postOauthAuthorize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Token endpoint: authorization code (with the PKCE verifier) or refresh with rotation */
        post: operations["postOauthToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Token revocation (RFC 7009): a refresh or access token ends its whole grant; unknown tokens are 200 too */
        post: operations["postOauthRevoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/social/platforms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Platforms, whether their connector is configured, and the caller’s connected accounts */
        get: operations["getApiSocialPlatforms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/x/connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start connecting an X account (OAuth 2.0 with PKCE S256): where to send the browser */
        post: operations["postApiXConnect"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/x/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where X sends the browser back: exchanges the code, stores the account, redirects */
        get: operations["getApiXCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/x/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller’s connected X accounts */
        get: operations["getApiXAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/x/accounts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Disconnect an X account: revoke its tokens at X and remove them */
        delete: operations["deleteApiXAccountsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/x/drafts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Drafts awaiting review */
        get: operations["getApiXDrafts"];
        put?: never;
        /** Draft a post (guardrails run at once) */
        post: operations["postApiXDrafts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/x/drafts/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a draft and queue it (guardrails run again; a blocked draft is refused) */
        post: operations["postApiXDraftsByIdApprove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/x/drafts/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a draft */
        post: operations["postApiXDraftsByIdReject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/x/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The publishing queue */
        get: operations["getApiXQueue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/x/queue/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a queued post */
        post: operations["postApiXQueueByIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/x/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Publish an approved draft now, or force a queued item */
        post: operations["postApiXPublish"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document (OpenAPI 3.1) */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The API reference page */
        get: operations["getDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The reference page's scripts, stylesheet and icon */
        get: operations["getDocsAssetsByFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every error: a readable `error`, a stable `code` (switch on it), and details that depend on the code (`details` lists the problems of a VALIDATION_ERROR; `retryAfter` comes with RATE_LIMITED). */
        ErrorBody: {
            error: string;
            /** @enum {string} */
            code: "VALIDATION_ERROR" | "UNAUTHORIZED" | "PERMISSION_DENIED" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "REQUEST_TIMEOUT" | "CONFLICT" | "SECRET_REQUIRED" | "SKILL_REQUIRED" | "PERMISSION_REQUIRED" | "APP_NOT_READY" | "IDEMPOTENCY_KEY_REUSED" | "IDEMPOTENCY_KEY_IN_USE" | "IDEMPOTENCY_OUTCOME_NOT_KEPT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "RATE_LIMITED" | "HEADERS_TOO_LARGE" | "INTERNAL_ERROR" | "SKILL_FAILED" | "UNAVAILABLE" | "DEADLINE_EXCEEDED";
            details?: {
                path: string;
                message: string;
            }[];
        } & {
            [key: string]: unknown;
        };
    };
    responses: {
        /** @description Invalid input (VALIDATION_ERROR, or a domain precondition such as SECRET_REQUIRED) */
        Error400: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Invalid request body: name: expected string, received undefined",
                 *       "code": "VALIDATION_ERROR",
                 *       "details": [
                 *         {
                 *           "path": "name",
                 *           "message": "expected string, received undefined"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Missing or invalid credentials (UNAUTHORIZED) */
        Error401: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Authentication required",
                 *       "code": "UNAUTHORIZED"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Authenticated but not allowed (PERMISSION_DENIED: scope, role or plan) */
        Error403: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "This token has no scope for this route",
                 *       "code": "PERMISSION_DENIED"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Not found, or not visible to this caller (NOT_FOUND) */
        Error404: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Not found",
                 *       "code": "NOT_FOUND"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Method not allowed (METHOD_NOT_ALLOWED) */
        Error405: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Method not allowed",
                 *       "code": "METHOD_NOT_ALLOWED"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Conflict with the current state (CONFLICT, APP_NOT_READY, IDEMPOTENCY_KEY_*) */
        Error409: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "The resource changed or already exists",
                 *       "code": "CONFLICT"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Body too large (PAYLOAD_TOO_LARGE) */
        Error413: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Request body too large",
                 *       "code": "PAYLOAD_TOO_LARGE"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Unsupported media type */
        Error415: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Unsupported media type",
                 *       "code": "UNSUPPORTED_MEDIA_TYPE"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Rate limited (RATE_LIMITED, with Retry-After) */
        Error429: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Too many requests",
                 *       "code": "RATE_LIMITED",
                 *       "retryAfter": 30
                 *     }
                 */
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description A capability failed (SKILL_FAILED) */
        Error502: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "The capability failed",
                 *       "code": "SKILL_FAILED"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description A dependency is unavailable (UNAVAILABLE, retryable) */
        Error503: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "A dependency is unavailable; retry later",
                 *       "code": "UNAVAILABLE"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Deadline exceeded (DEADLINE_EXCEEDED, retryable) */
        Error504: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "The work did not finish in time",
                 *       "code": "DEADLINE_EXCEEDED"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Any other error, same shape (500 INTERNAL_ERROR…) */
        ErrorDefault: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An event stream: `event: message`, `data:` one JSON-RPC notification */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            405: components["responses"]["Error405"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postMcp: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "jsonrpc": "2.0",
                 *       "id": 1,
                 *       "method": "tools/list"
                 *     }
                 */
                "application/json": {
                    /** @constant */
                    jsonrpc: "2.0";
                    id?: string | number | null;
                    /** @description initialize, tools/list, tools/call, resources/list, prompts/list, ping… */
                    method: string;
                    params?: {
                        [key: string]: unknown;
                    };
                } | {
                    /** @constant */
                    jsonrpc: "2.0";
                    id?: string | number | null;
                    /** @description initialize, tools/list, tools/call, resources/list, prompts/list, ping… */
                    method: string;
                    params?: {
                        [key: string]: unknown;
                    };
                }[] | {
                    /** @description Registry name (platform.mem_set), bare (mem_set) or mcp.<server>.<tool> */
                    tool: string;
                    input?: {
                        [key: string]: unknown;
                    };
                    arguments?: {
                        [key: string]: unknown;
                    };
                    server?: string;
                };
            };
        };
        responses: {
            /** @description A JSON-RPC answer (or a batch of them), or `{success, result}` for `{tool, input}` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "jsonrpc": "2.0",
                     *       "id": 1,
                     *       "result": {
                     *         "tools": [
                     *           {
                     *             "name": "mem_set",
                     *             "inputSchema": {
                     *               "type": "object"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": ({
                        /** @constant */
                        jsonrpc: "2.0";
                        id: string | number | null;
                        result: {
                            [key: string]: unknown;
                        };
                    } | {
                        /** @constant */
                        jsonrpc: "2.0";
                        id: string | number | null;
                        error: {
                            code: number;
                            message: string;
                            data?: unknown;
                        };
                    }) | ({
                        /** @constant */
                        jsonrpc: "2.0";
                        id: string | number | null;
                        result: {
                            [key: string]: unknown;
                        };
                    } | {
                        /** @constant */
                        jsonrpc: "2.0";
                        id: string | number | null;
                        error: {
                            code: number;
                            message: string;
                            data?: unknown;
                        };
                    })[] | {
                        /** @constant */
                        success: true;
                        result: unknown;
                    };
                };
            };
            /** @description A notification or a batch of notifications: no body */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            504: components["responses"]["Error504"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (also when there was nothing to drop) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getTools: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tools: {
                            name: string;
                            description: string;
                            inputSchema: {
                                /** @constant */
                                type: "object";
                            } & {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getWellKnownOauthProtectedResourceMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        resource: string;
                        authorization_servers: string[];
                        bearer_methods_supported: string[];
                        scopes_supported: string[];
                        resource_name: string;
                    };
                };
            };
            default: components["responses"]["ErrorDefault"];
        };
    };
    getWellKnownOauthProtectedResource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        resource: string;
                        authorization_servers: string[];
                        bearer_methods_supported: string[];
                        scopes_supported: string[];
                        resource_name: string;
                    };
                };
            };
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiFfpRoutes: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        routes: {
                            tool: string;
                            primitive: string;
                            fallbackUsed: boolean;
                            /** @enum {string} */
                            invokedByType: "agent" | "account" | "workflow" | "studio" | "skill" | "app";
                            routeDecision: {
                                /** @enum {string} */
                                source: "platform" | "external_mcp" | "skill";
                            };
                            related: {
                                apps: string[];
                                workflows: string[];
                                skills: string[];
                            };
                            agentRef: string;
                            /** @enum {string} */
                            status: "ok" | "error" | "cancelled";
                            errorCode?: string;
                            durationMs: number;
                            at: string;
                        }[];
                        primitives: {
                            primitive: string;
                            executions: number;
                            fallbackCount: number;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "degraded" | "unavailable";
                        version: string;
                        timestamp: string;
                        tools: number;
                        dependencies?: {
                            [key: string]: {
                                /** @enum {string} */
                                state: "up" | "connecting" | "down" | "unknown";
                                embedded?: boolean;
                                detail?: string;
                                latencyMs?: number;
                            };
                        };
                        error?: string;
                        code?: string;
                    };
                };
            };
            401: components["responses"]["Error401"];
            /** @description Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "degraded" | "unavailable";
                        version: string;
                        timestamp: string;
                        tools: number;
                        dependencies?: {
                            [key: string]: {
                                /** @enum {string} */
                                state: "up" | "connecting" | "down" | "unknown";
                                embedded?: boolean;
                                detail?: string;
                                latencyMs?: number;
                            };
                        };
                        error?: string;
                        code?: string;
                    };
                };
            };
            default: components["responses"]["ErrorDefault"];
        };
    };
    getLivez: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "alive";
                    };
                };
            };
            default: components["responses"]["ErrorDefault"];
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ready";
                    };
                };
            };
            503: components["responses"]["Error503"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiFfpTemp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        enabled: false;
                        /** @constant */
                        status: "disabled";
                        /** @constant */
                        route: "direct";
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    patchApiFfpTemp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Refused, whatever the body */
            405: {
                headers: {
                    /** @description GET */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        /** @constant */
                        enabled: false;
                        /** @constant */
                        status: "disabled";
                    };
                };
            };
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiSignup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "password": "correct horse battery",
                 *       "accountType": "retail",
                 *       "selectedPlan": "retail_free"
                 *     }
                 */
                "application/json": {
                    email: string;
                    password: string;
                    agentName?: string;
                    /** @enum {string} */
                    accountType: "retail" | "enterprise";
                    /** @enum {string} */
                    selectedPlan: "retail_free" | "retail_pro" | "enterprise_plus" | "enterprise_max";
                    /** @default false */
                    planSelectionSkipped?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        redirectTo: string;
                        credentials: {
                            bearerToken: string | null;
                            apiKey: string | null;
                            expiresIn: string;
                            /** @enum {string} */
                            plan: "retail_free" | "retail_pro" | "enterprise_plus" | "enterprise_max";
                            planLabel: string;
                            capabilities: string[];
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiSignin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "password": "correct horse battery"
                 *     }
                 */
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        credentials: {
                            bearerToken: string | null;
                            apiKey: string | null;
                            expiresIn: string;
                            agentName: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            429: components["responses"]["Error429"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiForgotPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["Error400"];
            429: components["responses"]["Error429"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiForgotPasswordConfirm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    token: string;
                    newPassword: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            429: components["responses"]["Error429"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiPlansTransition: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "newPlan": "retail_pro"
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    newPlan: "retail_free" | "retail_pro" | "enterprise_plus" | "enterprise_max";
                    /** @default beta_self_serve_upgrade */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        transitioned: boolean;
                        noChange: boolean;
                        transition: {
                            /** @enum {string} */
                            oldPlan: "retail_free" | "retail_pro" | "enterprise_plus" | "enterprise_max";
                            /** @enum {string} */
                            newPlan: "retail_free" | "retail_pro" | "enterprise_plus" | "enterprise_max";
                            newCapabilities: string[];
                        };
                        billing: {
                            /** @constant */
                            mode: "free_beta";
                            /** @constant */
                            charged: false;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        authenticated: false;
                        session: null;
                    } | {
                        /** @constant */
                        authenticated: true;
                        session: {
                            agentName: string | null;
                            expiresAt: string | null;
                            /** @enum {string} */
                            via: "session" | "bearer";
                            /** @enum {string} */
                            subjectType: "account" | "agent";
                            /** @enum {string} */
                            accountType?: "retail" | "enterprise";
                            /** @enum {string} */
                            plan?: "retail_free" | "retail_pro" | "enterprise_plus" | "enterprise_max";
                            planLabel?: string;
                            capabilities?: string[];
                        };
                    };
                };
            };
            401: components["responses"]["Error401"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["Error401"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiSessionToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        credentials: {
                            bearerToken: string | null;
                            apiKey: string | null;
                            expiresIn: string;
                        };
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiSessionFromKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    apiKey: string;
                    redirectTo?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        loginUrl: string;
                        expiresIn: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiSessionFromKeyCallback: {
        parameters: {
            query: {
                st: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in: redirect into the site */
            302: {
                headers: {
                    /** @description Where to go */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postRegister: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "release-bot"
                 *     }
                 */
                "application/json": {
                    name: string;
                    description?: string;
                    ownerEmail?: string;
                    allowedDomains?: string[];
                    allowedTools?: string[];
                    agentId?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: string;
                        /** @constant */
                        expiresIn: "90d";
                        allowedDomains: string[];
                        allowedTools: string[];
                        mcpEndpoint: string;
                        toolsEndpoint: string;
                    };
                };
            };
            400: components["responses"]["Error400"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getAgentMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        status: string;
                        allowedDomains: string[];
                        allowedTools: string[];
                        totalCalls: number;
                        lastActiveAt: string | null;
                        createdAt: string;
                        mcpEndpoint: string;
                        toolsEndpoint: string;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiAgents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        agents: {
                            agentRef: string;
                            name: string;
                            isSubagent: boolean;
                            status: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiAgents: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "triage"
                 *     }
                 */
                "application/json": {
                    name: string;
                    description?: string;
                    parentAgentRef?: string;
                    allowedTools?: string[];
                    allowedDomains?: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        agent: {
                            agentRef: string;
                            name: string;
                            isSubagent: boolean;
                            status: string;
                        };
                        apiKey: string;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    patchApiAgents: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    agentRef: string;
                    allowedTools?: string[];
                    allowedDomains?: string[];
                    /** @enum {string} */
                    status?: "active" | "disabled";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        agent: {
                            agentRef: string;
                            name: string;
                            isSubagent: boolean;
                            status: string;
                            allowedTools: string[];
                            allowedDomains: string[];
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiBearerTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: {
                            id: string;
                            name: string;
                            workspaceId: string | null;
                            projectId: string | null;
                            scopes: ("workspace" | "project" | "app" | "workflow" | "mcp_connector" | "external_agent" | "api")[];
                            maskedToken: string;
                            /** @enum {string} */
                            status: "live" | "revoked";
                            lastUsedAt: string | null;
                            createdAt: string;
                            expiresAt: string;
                            revokedAt?: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiBearerTokens: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "ci",
                 *       "scopes": [
                 *         "api"
                 *       ]
                 *     }
                 */
                "application/json": {
                    name: string;
                    workspaceId?: string;
                    projectId?: string;
                    scopes?: ("workspace" | "project" | "app" | "workflow" | "mcp_connector" | "external_agent" | "api")[];
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: {
                            id: string;
                            name: string;
                            workspaceId: string | null;
                            projectId: string | null;
                            scopes: ("workspace" | "project" | "app" | "workflow" | "mcp_connector" | "external_agent" | "api")[];
                            maskedToken: string;
                            /** @enum {string} */
                            status: "live" | "revoked";
                            lastUsedAt: string | null;
                            createdAt: string;
                            expiresAt: string;
                            revokedAt?: string;
                        };
                        bearerToken: string;
                        /** @constant */
                        oneTimeReveal: true;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiBearerTokens: {
        parameters: {
            query?: {
                id?: string;
            };
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        revoked: true;
                        token: {
                            id: string;
                            name: string;
                            workspaceId: string | null;
                            projectId: string | null;
                            scopes: ("workspace" | "project" | "app" | "workflow" | "mcp_connector" | "external_agent" | "api")[];
                            maskedToken: string;
                            /** @enum {string} */
                            status: "live" | "revoked";
                            lastUsedAt: string | null;
                            createdAt: string;
                            expiresAt: string;
                            revokedAt?: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    patchApiBearerTokens: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id: string;
                    /** @enum {string} */
                    action?: "rotate" | "revoke";
                    name?: string;
                    scopes?: ("workspace" | "project" | "app" | "workflow" | "mcp_connector" | "external_agent" | "api")[];
                };
            };
        };
        responses: {
            /** @description Rotated (with the new value) or updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: {
                            id: string;
                            name: string;
                            workspaceId: string | null;
                            projectId: string | null;
                            scopes: ("workspace" | "project" | "app" | "workflow" | "mcp_connector" | "external_agent" | "api")[];
                            maskedToken: string;
                            /** @enum {string} */
                            status: "live" | "revoked";
                            lastUsedAt: string | null;
                            createdAt: string;
                            expiresAt: string;
                            revokedAt?: string;
                        };
                        bearerToken: string;
                        /** @constant */
                        oneTimeReveal: true;
                    } | {
                        token: {
                            id: string;
                            name: string;
                            workspaceId: string | null;
                            projectId: string | null;
                            scopes: ("workspace" | "project" | "app" | "workflow" | "mcp_connector" | "external_agent" | "api")[];
                            maskedToken: string;
                            /** @enum {string} */
                            status: "live" | "revoked";
                            lastUsedAt: string | null;
                            createdAt: string;
                            expiresAt: string;
                            revokedAt?: string;
                        };
                        /** @constant */
                        oneTimeReveal: false;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiConnectors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connectors: {
                            slug: string;
                            name: string;
                            /** @enum {string} */
                            transport: "stdio" | "http";
                            toolCount: number;
                            /** @enum {string} */
                            healthStatus: "active" | "error" | "disabled";
                            permissionScope: {
                                apps?: string[];
                                workflows?: string[];
                                skills?: string[];
                            };
                            lastAuditOutcome: {
                                success: boolean;
                                tool: string;
                                at: string;
                            };
                            lastError: {
                                message: string;
                                at: string;
                            } | null;
                            usedBy: {
                                apps: string[];
                                workflows: string[];
                                skills: string[];
                            };
                            tools: {
                                name: string;
                                description: string;
                                title?: string;
                            }[];
                            serverInfo: {
                                name: string;
                                version: string;
                            } | null;
                            command?: string;
                            args?: string[];
                            env?: {
                                [key: string]: string;
                            };
                            url?: string;
                            headers?: {
                                [key: string]: string;
                            };
                            discoveredAt: string;
                            createdAt: string;
                            updatedAt: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiConnectors: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    slug: string;
                    name?: string;
                    /** @enum {string} */
                    transport: "stdio" | "http";
                    command?: string;
                    args?: string[];
                    env?: {
                        [key: string]: string;
                    };
                    url?: string;
                    headers?: {
                        [key: string]: string;
                    };
                    permissionScope?: {
                        apps?: string[];
                        workflows?: string[];
                        skills?: string[];
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connector: {
                            slug: string;
                            name: string;
                            /** @enum {string} */
                            transport: "stdio" | "http";
                            toolCount: number;
                            /** @enum {string} */
                            healthStatus: "active" | "error" | "disabled";
                            permissionScope: {
                                apps?: string[];
                                workflows?: string[];
                                skills?: string[];
                            };
                            lastAuditOutcome: {
                                success: boolean;
                                tool: string;
                                at: string;
                            };
                            lastError: {
                                message: string;
                                at: string;
                            } | null;
                            usedBy: {
                                apps: string[];
                                workflows: string[];
                                skills: string[];
                            };
                            tools: {
                                name: string;
                                description: string;
                                title?: string;
                            }[];
                            serverInfo: {
                                name: string;
                                version: string;
                            } | null;
                            command?: string;
                            args?: string[];
                            env?: {
                                [key: string]: string;
                            };
                            url?: string;
                            headers?: {
                                [key: string]: string;
                            };
                            discoveredAt: string;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiConnectors: {
        parameters: {
            query: {
                slug: string;
            };
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        connector: {
                            slug: string;
                            name: string;
                            /** @enum {string} */
                            transport: "stdio" | "http";
                            toolCount: number;
                            /** @enum {string} */
                            healthStatus: "active" | "error" | "disabled";
                            permissionScope: {
                                apps?: string[];
                                workflows?: string[];
                                skills?: string[];
                            };
                            lastAuditOutcome: {
                                success: boolean;
                                tool: string;
                                at: string;
                            };
                            lastError: {
                                message: string;
                                at: string;
                            } | null;
                            usedBy: {
                                apps: string[];
                                workflows: string[];
                                skills: string[];
                            };
                            tools: {
                                name: string;
                                description: string;
                                title?: string;
                            }[];
                            serverInfo: {
                                name: string;
                                version: string;
                            } | null;
                            command?: string;
                            args?: string[];
                            env?: {
                                [key: string]: string;
                            };
                            url?: string;
                            headers?: {
                                [key: string]: string;
                            };
                            discoveredAt: string;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiConnectorsBySlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connector: {
                            slug: string;
                            name: string;
                            /** @enum {string} */
                            transport: "stdio" | "http";
                            toolCount: number;
                            /** @enum {string} */
                            healthStatus: "active" | "error" | "disabled";
                            permissionScope: {
                                apps?: string[];
                                workflows?: string[];
                                skills?: string[];
                            };
                            lastAuditOutcome: {
                                success: boolean;
                                tool: string;
                                at: string;
                            };
                            lastError: {
                                message: string;
                                at: string;
                            } | null;
                            usedBy: {
                                apps: string[];
                                workflows: string[];
                                skills: string[];
                            };
                            tools: {
                                name: string;
                                description: string;
                                title?: string;
                            }[];
                            serverInfo: {
                                name: string;
                                version: string;
                            } | null;
                            command?: string;
                            args?: string[];
                            env?: {
                                [key: string]: string;
                            };
                            url?: string;
                            headers?: {
                                [key: string]: string;
                            };
                            discoveredAt: string;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiConnectorsBySlug: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        connector: {
                            slug: string;
                            name: string;
                            /** @enum {string} */
                            transport: "stdio" | "http";
                            toolCount: number;
                            /** @enum {string} */
                            healthStatus: "active" | "error" | "disabled";
                            permissionScope: {
                                apps?: string[];
                                workflows?: string[];
                                skills?: string[];
                            };
                            lastAuditOutcome: {
                                success: boolean;
                                tool: string;
                                at: string;
                            };
                            lastError: {
                                message: string;
                                at: string;
                            } | null;
                            usedBy: {
                                apps: string[];
                                workflows: string[];
                                skills: string[];
                            };
                            tools: {
                                name: string;
                                description: string;
                                title?: string;
                            }[];
                            serverInfo: {
                                name: string;
                                version: string;
                            } | null;
                            command?: string;
                            args?: string[];
                            env?: {
                                [key: string]: string;
                            };
                            url?: string;
                            headers?: {
                                [key: string]: string;
                            };
                            discoveredAt: string;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    patchApiConnectorsBySlug: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    enabled?: boolean;
                    permissionScope?: {
                        apps?: string[];
                        workflows?: string[];
                        skills?: string[];
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connector: {
                            slug: string;
                            name: string;
                            /** @enum {string} */
                            transport: "stdio" | "http";
                            toolCount: number;
                            /** @enum {string} */
                            healthStatus: "active" | "error" | "disabled";
                            permissionScope: {
                                apps?: string[];
                                workflows?: string[];
                                skills?: string[];
                            };
                            lastAuditOutcome: {
                                success: boolean;
                                tool: string;
                                at: string;
                            };
                            lastError: {
                                message: string;
                                at: string;
                            } | null;
                            usedBy: {
                                apps: string[];
                                workflows: string[];
                                skills: string[];
                            };
                            tools: {
                                name: string;
                                description: string;
                                title?: string;
                            }[];
                            serverInfo: {
                                name: string;
                                version: string;
                            } | null;
                            command?: string;
                            args?: string[];
                            env?: {
                                [key: string]: string;
                            };
                            url?: string;
                            headers?: {
                                [key: string]: string;
                            };
                            discoveredAt: string;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiConnectorsBySlugRefresh: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connector: {
                            slug: string;
                            name: string;
                            /** @enum {string} */
                            transport: "stdio" | "http";
                            toolCount: number;
                            /** @enum {string} */
                            healthStatus: "active" | "error" | "disabled";
                            permissionScope: {
                                apps?: string[];
                                workflows?: string[];
                                skills?: string[];
                            };
                            lastAuditOutcome: {
                                success: boolean;
                                tool: string;
                                at: string;
                            };
                            lastError: {
                                message: string;
                                at: string;
                            } | null;
                            usedBy: {
                                apps: string[];
                                workflows: string[];
                                skills: string[];
                            };
                            tools: {
                                name: string;
                                description: string;
                                title?: string;
                            }[];
                            serverInfo: {
                                name: string;
                                version: string;
                            } | null;
                            command?: string;
                            args?: string[];
                            env?: {
                                [key: string]: string;
                            };
                            url?: string;
                            headers?: {
                                [key: string]: string;
                            };
                            discoveredAt: string;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            503: components["responses"]["Error503"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiExecutions: {
        parameters: {
            query?: {
                status?: string;
                sourceType?: string;
                workflowId?: string;
                appSlug?: string;
                skillSlug?: string;
                sessionId?: string;
                workspaceId?: string;
                title?: string;
                type?: string;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        executions: {
                            id: string;
                            type: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                            sourceType: string;
                            title: string;
                            workspaceId: string;
                            sessionId: string | null;
                            workflowId: string | null;
                            appSlug: string | null;
                            skillSlug: string | null;
                            agentRef: string | null;
                            progress: {
                                completedSteps: number;
                                totalSteps: number | null;
                            };
                            hold: {
                                /** @enum {string} */
                                previousStatus: "COMPLETED" | "FAILED" | "CANCELLED";
                                at: string;
                            } | null;
                            failure: {
                                whatFailed: string | null;
                                code: string;
                                message: string;
                                at: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiExecutions: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default DEMO_STEPS */
                    type?: string;
                    title: string;
                    /** @default api */
                    sourceType?: string;
                    input?: {
                        [key: string]: unknown;
                    };
                    steps?: unknown[];
                    workspaceId?: string;
                    sessionId?: string;
                    workflowId?: string;
                    appSlug?: string;
                    skillSlug?: string;
                    /** @default true */
                    start?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        execution: {
                            id: string;
                            type: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                            sourceType: string;
                            title: string;
                            workspaceId: string;
                            sessionId: string | null;
                            workflowId: string | null;
                            appSlug: string | null;
                            skillSlug: string | null;
                            agentRef: string | null;
                            progress: {
                                completedSteps: number;
                                totalSteps: number | null;
                            };
                            hold: {
                                /** @enum {string} */
                                previousStatus: "COMPLETED" | "FAILED" | "CANCELLED";
                                at: string;
                            } | null;
                            failure: {
                                whatFailed: string | null;
                                code: string;
                                message: string;
                                at: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                            steps: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                status: "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
                                attempts: number;
                                effects: {
                                    kind: string;
                                    target: string;
                                    undone: boolean;
                                }[];
                                output?: unknown;
                                startedAt: string;
                                endedAt: string | null;
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                            }[];
                            stepInFlight: number | null;
                            lastRollback: {
                                at: string;
                                undone: number;
                                notUndone: number;
                            } | null;
                            result?: unknown;
                            endedAt: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiExecutionsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        execution: {
                            id: string;
                            type: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                            sourceType: string;
                            title: string;
                            workspaceId: string;
                            sessionId: string | null;
                            workflowId: string | null;
                            appSlug: string | null;
                            skillSlug: string | null;
                            agentRef: string | null;
                            progress: {
                                completedSteps: number;
                                totalSteps: number | null;
                            };
                            hold: {
                                /** @enum {string} */
                                previousStatus: "COMPLETED" | "FAILED" | "CANCELLED";
                                at: string;
                            } | null;
                            failure: {
                                whatFailed: string | null;
                                code: string;
                                message: string;
                                at: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                            steps: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                status: "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
                                attempts: number;
                                effects: {
                                    kind: string;
                                    target: string;
                                    undone: boolean;
                                }[];
                                output?: unknown;
                                startedAt: string;
                                endedAt: string | null;
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                            }[];
                            stepInFlight: number | null;
                            lastRollback: {
                                at: string;
                                undone: number;
                                notUndone: number;
                            } | null;
                            result?: unknown;
                            endedAt: string | null;
                        };
                        logs: {
                            seq: number;
                            /** @enum {string} */
                            level: "debug" | "info" | "warn" | "error";
                            message: string;
                            at: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiExecutionsByIdActions: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "action": "pause"
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    action: "pause" | "resume" | "retry" | "cancel" | "rollback";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        execution: {
                            id: string;
                            type: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                            sourceType: string;
                            title: string;
                            workspaceId: string;
                            sessionId: string | null;
                            workflowId: string | null;
                            appSlug: string | null;
                            skillSlug: string | null;
                            agentRef: string | null;
                            progress: {
                                completedSteps: number;
                                totalSteps: number | null;
                            };
                            hold: {
                                /** @enum {string} */
                                previousStatus: "COMPLETED" | "FAILED" | "CANCELLED";
                                at: string;
                            } | null;
                            failure: {
                                whatFailed: string | null;
                                code: string;
                                message: string;
                                at: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                            steps: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                status: "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
                                attempts: number;
                                effects: {
                                    kind: string;
                                    target: string;
                                    undone: boolean;
                                }[];
                                output?: unknown;
                                startedAt: string;
                                endedAt: string | null;
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                            }[];
                            stepInFlight: number | null;
                            lastRollback: {
                                at: string;
                                undone: number;
                                notUndone: number;
                            } | null;
                            result?: unknown;
                            endedAt: string | null;
                        };
                        rollback?: {
                            undone: {
                                step: number;
                                kind: string;
                                target: string;
                            }[];
                            notUndone: {
                                effect: {
                                    step: number;
                                    kind: string;
                                    target: string;
                                };
                                reason: string;
                            }[];
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            504: components["responses"]["Error504"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiExecutionsByIdEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An event stream: `event: log|status|…`, `data:` one JSON object per event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiRecovery: {
        parameters: {
            query?: {
                status?: string;
                sourceType?: string;
                workflowId?: string;
                appSlug?: string;
                skillSlug?: string;
                sessionId?: string;
                workspaceId?: string;
                title?: string;
                type?: string;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        executions: {
                            id: string;
                            type: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                            sourceType: string;
                            title: string;
                            workspaceId: string;
                            sessionId: string | null;
                            workflowId: string | null;
                            appSlug: string | null;
                            skillSlug: string | null;
                            agentRef: string | null;
                            progress: {
                                completedSteps: number;
                                totalSteps: number | null;
                            };
                            hold: {
                                /** @enum {string} */
                                previousStatus: "COMPLETED" | "FAILED" | "CANCELLED";
                                at: string;
                            } | null;
                            failure: {
                                whatFailed: string | null;
                                code: string;
                                message: string;
                                at: string;
                            };
                            createdAt: string;
                            updatedAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiRecovery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    executionId: string;
                    /** @enum {string} */
                    action: "resume" | "retry" | "cancel" | "rollback";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        execution: {
                            id: string;
                            type: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                            sourceType: string;
                            title: string;
                            workspaceId: string;
                            sessionId: string | null;
                            workflowId: string | null;
                            appSlug: string | null;
                            skillSlug: string | null;
                            agentRef: string | null;
                            progress: {
                                completedSteps: number;
                                totalSteps: number | null;
                            };
                            hold: {
                                /** @enum {string} */
                                previousStatus: "COMPLETED" | "FAILED" | "CANCELLED";
                                at: string;
                            } | null;
                            failure: {
                                whatFailed: string | null;
                                code: string;
                                message: string;
                                at: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                            steps: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                status: "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
                                attempts: number;
                                effects: {
                                    kind: string;
                                    target: string;
                                    undone: boolean;
                                }[];
                                output?: unknown;
                                startedAt: string;
                                endedAt: string | null;
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                            }[];
                            stepInFlight: number | null;
                            lastRollback: {
                                at: string;
                                undone: number;
                                notUndone: number;
                            } | null;
                            result?: unknown;
                            endedAt: string | null;
                        };
                        rollback?: {
                            undone: {
                                step: number;
                                kind: string;
                                target: string;
                            }[];
                            notUndone: {
                                effect: {
                                    step: number;
                                    kind: string;
                                    target: string;
                                };
                                reason: string;
                            }[];
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiPanic: {
        parameters: {
            query?: {
                workspaceId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workspaceId: string;
                        lockdown: boolean;
                        since: string | null;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiPanic: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    workspaceId?: string;
                    sessionId?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        stopped: number;
                        executions: {
                            id: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                        }[];
                        workspaceId: string;
                        sessionId: string | null;
                        lockdown: boolean;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiPanic: {
        parameters: {
            query?: {
                workspaceId?: string;
            };
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workspaceId: string;
                        lockdown: boolean;
                        since: string | null;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiNotifications: {
        parameters: {
            query?: {
                status?: "unread" | "read" | "archived";
                type?: "task" | "approval" | "workflow" | "recovery" | "panic";
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        notifications: {
                            id: string;
                            notificationId: string;
                            /** @enum {string} */
                            type: "task" | "approval" | "workflow" | "recovery" | "panic";
                            title: string;
                            body: string;
                            /** @enum {string} */
                            status: "unread" | "read" | "archived";
                            executionId: string | null;
                            workspaceId: string | null;
                            createdAt: string;
                            readAt: string | null;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiNotifications: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "notificationId": "ntf_…",
                 *       "status": "read"
                 *     }
                 */
                "application/json": {
                    /** @constant */
                    action: "mark_all_read";
                } | {
                    notificationId: string;
                    /** @enum {string} */
                    status: "unread" | "read" | "archived";
                } | {
                    title: string;
                    /** @default  */
                    body?: string;
                    /**
                     * @default task
                     * @enum {string}
                     */
                    type?: "task" | "approval" | "workflow" | "recovery" | "panic";
                    executionId?: string;
                };
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        notification: {
                            id: string;
                            notificationId: string;
                            /** @enum {string} */
                            type: "task" | "approval" | "workflow" | "recovery" | "panic";
                            title: string;
                            body: string;
                            /** @enum {string} */
                            status: "unread" | "read" | "archived";
                            executionId: string | null;
                            workspaceId: string | null;
                            createdAt: string;
                            readAt: string | null;
                        };
                    } | {
                        updated: number;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        notification: {
                            id: string;
                            notificationId: string;
                            /** @enum {string} */
                            type: "task" | "approval" | "workflow" | "recovery" | "panic";
                            title: string;
                            body: string;
                            /** @enum {string} */
                            status: "unread" | "read" | "archived";
                            executionId: string | null;
                            workspaceId: string | null;
                            createdAt: string;
                            readAt: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiStudioCommand: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "command": "help"
                 *     }
                 */
                "application/json": {
                    command: string;
                    confirmToken?: string;
                    /** @default false */
                    advancedMode?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        kind: "help" | "preview" | "result" | "error";
                        summary: string;
                        result?: unknown;
                        snippet?: string;
                        confirmToken?: string;
                        expiresIn?: number;
                        execution?: {
                            id: string;
                            status: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiStudioIntentStream: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message": "list my files",
                 *       "sessionId": "session-1"
                 *     }
                 */
                "application/json": {
                    message: string;
                    sessionId: string;
                    workspaceId?: string;
                    projectId?: string;
                };
            };
        };
        responses: {
            /** @description Events `execution`, `reply` (deltas, then the final one), `error`, `done` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiSkills: {
        parameters: {
            query?: {
                category?: string;
                search?: string;
                sort?: "popular" | "recent" | "rating" | "name";
                page?: number;
                limit?: number;
                author?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        skills: {
                            skill_id: string;
                            slug: string;
                            name: string;
                            category: string;
                            version: string;
                            author: string;
                            description: string;
                            permissions_required: ("mem" | "net" | "fs" | "db" | "events" | "mcp")[];
                            required_secrets: string[];
                            dependencies: {
                                required: string[];
                                optional: string[];
                            };
                            capabilities: {
                                name: string;
                                description: string;
                                mutating: boolean;
                                tool: string;
                            }[];
                            featured: boolean;
                            installs: number;
                            activeInstalls: number;
                            uses: number;
                            rating: number | null;
                            ratingCount: number;
                            publishedAt: string;
                            updatedAt: string;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiSkills: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    slug: string;
                    name: string;
                    category: string;
                    version: string;
                    description: string;
                    /** @default [] */
                    permissions_required?: ("mem" | "net" | "fs" | "db" | "events" | "mcp")[];
                    /** @default [] */
                    required_secrets?: string[];
                    /**
                     * @default {
                     *       "required": [],
                     *       "optional": []
                     *     }
                     */
                    dependencies?: {
                        /** @default [] */
                        required?: string[];
                        /** @default [] */
                        optional?: string[];
                    };
                    library?: string;
                    capabilities: {
                        name: string;
                        description: string;
                        paramsSchema: {
                            /** @constant */
                            type: "object";
                        } & {
                            [key: string]: unknown;
                        };
                        code: string;
                        /** @default false */
                        mutating?: boolean;
                    }[];
                    example: {
                        capability: string;
                        /** @default {} */
                        params?: {
                            [key: string]: unknown;
                        };
                    };
                    /** @default true */
                    published?: boolean;
                    developerHandle?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiSkillsDiscovery: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        skills: {
                            skill_id: string;
                            slug: string;
                            name: string;
                            category: string;
                            version: string;
                            author: string;
                            description: string;
                            permissions_required: ("mem" | "net" | "fs" | "db" | "events" | "mcp")[];
                            required_secrets: string[];
                            dependencies: {
                                required: string[];
                                optional: string[];
                            };
                            capabilities: {
                                name: string;
                                description: string;
                                mutating: boolean;
                                tool: string;
                            }[];
                            featured: boolean;
                            installs: number;
                            activeInstalls: number;
                            uses: number;
                            rating: number | null;
                            ratingCount: number;
                            publishedAt: string;
                            updatedAt: string;
                        }[];
                        installedSlugs: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            401: components["responses"]["Error401"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiSkillsByIdPreview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        skill: {
                            skill_id: string;
                            slug: string;
                            name: string;
                            category: string;
                            version: string;
                            author: string;
                            description: string;
                            permissions_required: ("mem" | "net" | "fs" | "db" | "events" | "mcp")[];
                            required_secrets: string[];
                            dependencies: {
                                required: string[];
                                optional: string[];
                            };
                            capabilities: {
                                name: string;
                                description: string;
                                mutating: boolean;
                                tool: string;
                                paramsSchema: {
                                    [key: string]: unknown;
                                };
                            }[];
                            featured: boolean;
                            installs: number;
                            activeInstalls: number;
                            uses: number;
                            rating: number | null;
                            ratingCount: number;
                            publishedAt: string;
                            updatedAt: string;
                        };
                        preview: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiSkillsInstall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "slug": "ip-calculator"
                 *     }
                 */
                "application/json": {
                    /** Format: uuid */
                    skill_id?: string;
                    slug?: string;
                    permissionsApproved?: ("mem" | "net" | "fs" | "db" | "events" | "mcp")[];
                    /** @default true */
                    installDependencies?: boolean;
                    /** @default [] */
                    optionalDependencies?: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiSkillsUse: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "skill_slug": "ip-calculator",
                 *       "capability": "cidr",
                 *       "params": {
                 *         "cidr": "10.0.0.0/24"
                 *       }
                 *     }
                 */
                "application/json": {
                    skill_slug: string;
                    capability: string;
                    /** @default {} */
                    params?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        result: unknown;
                        execution_time_ms: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            502: components["responses"]["Error502"];
            504: components["responses"]["Error504"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiSkillsByIdRating: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    stars: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiSkillsInstalled: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        installed_skills: {
                            id: string;
                            installed_at: string;
                            updated_at: string;
                            status: string;
                            permissionsApproved: string[];
                            missingPermissions: string[];
                            installedBy: {
                                kind: string;
                                agentRef?: string;
                            };
                            dependencyOf: string[];
                            lastUsedAt: string | null;
                            uses: number;
                            rating: number | null;
                            skill: {
                                skill_id: string;
                                slug: string;
                                name: string;
                                category: string;
                                version: string;
                                author: string;
                                description: string;
                                permissions_required: ("mem" | "net" | "fs" | "db" | "events" | "mcp")[];
                                required_secrets: string[];
                                dependencies: {
                                    required: string[];
                                    optional: string[];
                                };
                                capabilities: {
                                    name: string;
                                    description: string;
                                    mutating: boolean;
                                    tool: string;
                                }[];
                                featured: boolean;
                                installs: number;
                                activeInstalls: number;
                                uses: number;
                                rating: number | null;
                                ratingCount: number;
                                publishedAt: string;
                                updatedAt: string;
                            };
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    patchApiSkillsByIdInstallation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    permissionsApproved?: ("mem" | "net" | "fs" | "db" | "events" | "mcp")[];
                    /** @enum {string} */
                    status?: "active" | "disabled" | "removed";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiDevelopersByHandle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiApps: {
        parameters: {
            query?: {
                category?: "Research" | "Finance" | "Data" | "Operations";
                search?: string;
                sort?: "popular" | "recent" | "rating" | "name";
                limit?: number;
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        apps: {
                            slug: string;
                            name: string;
                            category: string;
                            description: string;
                            developer: string;
                            version: string;
                            published: boolean;
                            installCount: number;
                            rating: number | null;
                            ratingCount: number;
                            updatedAt: string;
                        }[];
                        categories: {
                            name: string;
                            count: number;
                        }[];
                        pagination: {
                            total: number;
                            page: number;
                            limit: number;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiApps: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    slug?: string;
                    name: string;
                    /** @enum {string} */
                    category: "Research" | "Finance" | "Data" | "Operations";
                    description: string;
                    /** @default [] */
                    deviceTargets?: string[];
                    manifest: {
                        /**
                         * @default 1
                         * @constant
                         */
                        schemaVersion?: 1;
                        version: string;
                        /**
                         * @default web
                         * @enum {string}
                         */
                        runtime?: "web" | "node" | "python" | "native";
                        entrypoint: string;
                        /** @default [] */
                        primitives?: string[];
                        /** @default [] */
                        skills?: string[];
                        /** @default [] */
                        requiredSkills?: string[];
                        /** @default [] */
                        permissions?: string[];
                        /** @default [] */
                        requiredSecrets?: string[];
                        /** @default [] */
                        commands?: {
                            name: string;
                            /** @default  */
                            description?: string;
                        }[];
                        /** @default {} */
                        distribution?: {
                            /** Format: uri */
                            webUrl?: string;
                            /** Format: uri */
                            androidUrl?: string;
                            /** Format: uri */
                            iosUrl?: string;
                        };
                    };
                    /** @default {} */
                    defaultConfig?: {
                        [key: string]: unknown;
                    };
                    /** @default  */
                    releaseNotes?: string;
                    /** @default true */
                    published?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        created: boolean;
                        app: {
                            slug: string;
                            name: string;
                            version: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        created: boolean;
                        app: {
                            slug: string;
                            name: string;
                            version: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiAppsDiscovery: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            401: components["responses"]["Error401"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiAppsBySlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        app: {
                            slug: string;
                            version: string;
                        } & {
                            [key: string]: unknown;
                        };
                        viewerOwnsApp: boolean;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiAppsBySlugDownload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiAppsInstalled: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiAppsUpdates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        updates: {
                            [key: string]: unknown;
                        }[];
                        total: number;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiAppsUpdates: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiAppsInstall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    slug: string;
                    workspaceId?: string;
                    /** @default [] */
                    permissionsApproved?: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiAppsBySlugReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the caller’s installation, null before install */
                        installation: {
                            [key: string]: unknown;
                        } | null;
                        requiredPermissions: string[];
                        missingPermissions: string[];
                        missingSecrets: string[];
                        missingSkills: string[];
                        ready: boolean;
                        updateAvailable: boolean;
                        targets: {
                            /** @enum {string} */
                            target: "web" | "android" | "ios";
                            url: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiAppsBySlugInstallation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    patchApiAppsBySlugInstallation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    favorite?: boolean;
                    permissionsApproved?: string[];
                    /** @enum {string} */
                    status?: "active" | "disabled" | "removed";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiAppsBySlugOpen: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @default web
                     * @enum {string}
                     */
                    target?: "web" | "android" | "ios";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiAppsBySlugRollback: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiAppsLibrary: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        library: {
                            slug: string;
                            name: string | null;
                            workspaceId: string;
                            devices: {
                                /** @enum {string} */
                                target: "android" | "ios" | "desktop" | "pwa";
                                version: string;
                                installedAt: string;
                            }[];
                            addedAt: string;
                            updatedAt: string;
                        }[];
                        total: number;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiAppsActivity: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        activity: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiAppsBySlugDeviceInstall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    target: "android" | "ios" | "desktop" | "pwa";
                    workspaceId?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workspaceInstalled: boolean;
                        deviceInstalled: boolean;
                        target: string;
                        packageCachedForOfflineInstall: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiAppsBySlugDeviceInstall: {
        parameters: {
            query?: {
                target?: "android" | "ios" | "desktop" | "pwa";
            };
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        removed: boolean;
                        ownershipPreserved: boolean;
                        target: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiAppsBySlugRating: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    stars: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiVault: {
        parameters: {
            query?: {
                workspaceId?: string;
                search?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secrets: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            status: "active" | "disabled";
                            workspaceId: string;
                            maskedValue: string;
                            version: number;
                            createdAt: string;
                            updatedAt: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiVault: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "GITHUB_TOKEN",
                 *       "value": "ghp_…"
                 *     }
                 */
                "application/json": {
                    workspaceId?: string;
                    name: string;
                    value: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secret: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            status: "active" | "disabled";
                            workspaceId: string;
                            maskedValue: string;
                            version: number;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiVault: {
        parameters: {
            query?: {
                secretId?: string;
            };
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    secretId: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        secret: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            status: "active" | "disabled";
                            workspaceId: string;
                            maskedValue: string;
                            version: number;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    patchApiVault: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    secretId: string;
                    /** @enum {string} */
                    action: "disable" | "enable" | "rotate";
                    value?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secret: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            status: "active" | "disabled";
                            workspaceId: string;
                            maskedValue: string;
                            version: number;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiVaultAssignments: {
        parameters: {
            query?: {
                secretId?: string;
                subjectType?: "skill" | "app" | "agent" | "workflow";
                subjectId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        assignments: {
                            id: string;
                            secretId: string;
                            secretName: string;
                            workspaceId: string;
                            /** @enum {string} */
                            subjectType: "skill" | "app" | "agent" | "workflow";
                            subjectId: string;
                            createdAt: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiVaultAssignments: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    secretId: string;
                    /** @enum {string} */
                    subjectType: "skill" | "app" | "agent" | "workflow";
                    subjectId: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        assignment: {
                            id: string;
                            secretId: string;
                            secretName: string;
                            workspaceId: string;
                            /** @enum {string} */
                            subjectType: "skill" | "app" | "agent" | "workflow";
                            subjectId: string;
                            createdAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiVaultAssignments: {
        parameters: {
            query?: {
                secretId?: string;
                subjectType?: "skill" | "app" | "agent" | "workflow";
                subjectId?: string;
            };
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    secretId: string;
                    /** @enum {string} */
                    subjectType: "skill" | "app" | "agent" | "workflow";
                    subjectId: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        assignment: {
                            id: string;
                            secretId: string;
                            secretName: string;
                            workspaceId: string;
                            /** @enum {string} */
                            subjectType: "skill" | "app" | "agent" | "workflow";
                            subjectId: string;
                            createdAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiVaultAudit: {
        parameters: {
            query?: {
                workspaceId?: string;
                event?: "granted" | "denied" | "consumed" | "cleaned" | "revoked" | "expired" | "created" | "rotated" | "disabled" | "enabled" | "deleted" | "assigned" | "unassigned";
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: {
                            id: string;
                            /** @enum {string} */
                            event: "granted" | "denied" | "consumed" | "cleaned" | "revoked" | "expired" | "created" | "rotated" | "disabled" | "enabled" | "deleted" | "assigned" | "unassigned";
                            workspaceId: string;
                            secretName: string;
                            secretId?: string;
                            grantId?: string;
                            /** @enum {string} */
                            subjectType?: "skill" | "app" | "agent" | "workflow";
                            subjectId?: string;
                            actor: {
                                kind: string;
                                via?: string;
                                ref?: string;
                            };
                            at: string;
                            reason?: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiVaultAccess: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    action: "runtime";
                    workspaceId: string;
                    secretName: string;
                    /** @enum {string} */
                    subjectType: "skill" | "app";
                    subjectId: string;
                    appSlug?: string;
                    /** @default 300 */
                    ttlSeconds?: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        granted: true;
                        grant: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            status: "active" | "consumed" | "revoked" | "expired";
                            expiresAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiVaultRuntimeGrantsConsume: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    grantId: string;
                    /**
                     * @default consume
                     * @enum {string}
                     */
                    action?: "consume" | "cleanup";
                };
            };
        };
        responses: {
            /** @description The secret (consume) or the grant state (cleanup) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secret: {
                            name: string;
                            value: string;
                        };
                        grant: {
                            id: string;
                            /** @enum {string} */
                            status: "active" | "consumed" | "revoked" | "expired";
                        };
                    } | {
                        grant: {
                            id: string;
                            /** @enum {string} */
                            status: "active" | "consumed" | "revoked" | "expired";
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiSdkCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        credentials: {
                            id: string;
                            name: string;
                            scopes: ("vault:consume" | "vault:cleanup")[];
                            workspaceId: string | null;
                            expiresAt: string | null;
                            createdAt: string;
                            maskedValue: string;
                            /** @enum {string} */
                            status: "active" | "revoked";
                            lastUsedAt: string | null;
                            revokedAt?: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiSdkCredentials: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    scopes?: ("vault:consume" | "vault:cleanup")[];
                    workspaceId?: string;
                    /** Format: date-time */
                    expiresAt?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        credential: {
                            id: string;
                            name: string;
                            scopes: ("vault:consume" | "vault:cleanup")[];
                            workspaceId: string | null;
                            expiresAt: string | null;
                            createdAt: string;
                            maskedValue: string;
                            /** @enum {string} */
                            status: "active" | "revoked";
                            lastUsedAt: string | null;
                            revokedAt?: string;
                        };
                        value: string;
                        /** @constant */
                        oneTimeReveal: true;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiSdkCredentials: {
        parameters: {
            query?: {
                credentialId?: string;
            };
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    credentialId: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        revoked: true;
                        credential: {
                            id: string;
                            name: string;
                            scopes: ("vault:consume" | "vault:cleanup")[];
                            workspaceId: string | null;
                            expiresAt: string | null;
                            createdAt: string;
                            maskedValue: string;
                            /** @enum {string} */
                            status: "active" | "revoked";
                            lastUsedAt: string | null;
                            revokedAt?: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiFiles: {
        parameters: {
            query?: {
                action?: "list" | "preview" | "summarize";
                path?: string;
                prefix?: string;
                text?: string;
                visibility?: "private" | "workspace" | "public";
                workspaceId?: string;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of files, a preview or a summary (by `action`) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: {
                            path: string;
                            /** @enum {string} */
                            visibility: "private" | "workspace" | "public";
                            size: number;
                            contentEncoding: string | null;
                            contentType: string | null;
                            version: number;
                            updatedAt: string;
                            owned: boolean;
                        }[];
                        nextCursor: string | null;
                    } | {
                        entry: {
                            path: string;
                            /** @enum {string} */
                            visibility: "private" | "workspace" | "public";
                            size: number;
                            contentEncoding: string | null;
                            contentType: string | null;
                            version: number;
                            updatedAt: string;
                            owned: boolean;
                        };
                        /** @enum {string} */
                        contentEncoding: "utf8" | "base64";
                        content: string;
                        truncated: boolean;
                    } | {
                        entry: {
                            path: string;
                            /** @enum {string} */
                            visibility: "private" | "workspace" | "public";
                            size: number;
                            contentEncoding: string | null;
                            contentType: string | null;
                            version: number;
                            updatedAt: string;
                            owned: boolean;
                        };
                        summary: {
                            size: number;
                            type: string;
                            text: boolean;
                            lineCount: number | null;
                            firstLines: string[];
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiFiles: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "path": "notes/hello.txt",
                 *       "data": "Hello",
                 *       "visibility": "private"
                 *     }
                 */
                "application/json": {
                    path: string;
                    data: string;
                    /**
                     * @default utf8
                     * @enum {string}
                     */
                    contentEncoding?: "utf8" | "base64";
                    /** @enum {string} */
                    visibility?: "private" | "workspace" | "public";
                    workspaceId?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entry: {
                            path: string;
                            /** @enum {string} */
                            visibility: "private" | "workspace" | "public";
                            size: number;
                            contentEncoding: string | null;
                            contentType: string | null;
                            version: number;
                            updatedAt: string;
                            owned: boolean;
                        };
                        execution: {
                            id: string;
                            type: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                            sourceType: string;
                            title: string;
                            workspaceId: string;
                            sessionId: string | null;
                            workflowId: string | null;
                            appSlug: string | null;
                            skillSlug: string | null;
                            agentRef: string | null;
                            progress: {
                                completedSteps: number;
                                totalSteps: number | null;
                            };
                            hold: {
                                /** @enum {string} */
                                previousStatus: "COMPLETED" | "FAILED" | "CANCELLED";
                                at: string;
                            } | null;
                            failure: {
                                whatFailed: string | null;
                                code: string;
                                message: string;
                                at: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                            steps: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                status: "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
                                attempts: number;
                                effects: {
                                    kind: string;
                                    target: string;
                                    undone: boolean;
                                }[];
                                output?: unknown;
                                startedAt: string;
                                endedAt: string | null;
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                            }[];
                            stepInFlight: number | null;
                            lastRollback: {
                                at: string;
                                undone: number;
                                notUndone: number;
                            } | null;
                            result?: unknown;
                            endedAt: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiFiles: {
        parameters: {
            query: {
                path: string;
                workspaceId?: string;
            };
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        path: string;
                        /** @constant */
                        deleted: true;
                        execution: {
                            id: string;
                            type: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                            sourceType: string;
                            title: string;
                            workspaceId: string;
                            sessionId: string | null;
                            workflowId: string | null;
                            appSlug: string | null;
                            skillSlug: string | null;
                            agentRef: string | null;
                            progress: {
                                completedSteps: number;
                                totalSteps: number | null;
                            };
                            hold: {
                                /** @enum {string} */
                                previousStatus: "COMPLETED" | "FAILED" | "CANCELLED";
                                at: string;
                            } | null;
                            failure: {
                                whatFailed: string | null;
                                code: string;
                                message: string;
                                at: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                            steps: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                status: "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
                                attempts: number;
                                effects: {
                                    kind: string;
                                    target: string;
                                    undone: boolean;
                                }[];
                                output?: unknown;
                                startedAt: string;
                                endedAt: string | null;
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                            }[];
                            stepInFlight: number | null;
                            lastRollback: {
                                at: string;
                                undone: number;
                                notUndone: number;
                            } | null;
                            result?: unknown;
                            endedAt: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    patchApiFiles: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    path: string;
                    nextPath: string;
                    workspaceId?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entry: {
                            path: string;
                            /** @enum {string} */
                            visibility: "private" | "workspace" | "public";
                            size: number;
                            contentEncoding: string | null;
                            contentType: string | null;
                            version: number;
                            updatedAt: string;
                            owned: boolean;
                        };
                        previousPath: string;
                        execution: {
                            id: string;
                            type: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                            sourceType: string;
                            title: string;
                            workspaceId: string;
                            sessionId: string | null;
                            workflowId: string | null;
                            appSlug: string | null;
                            skillSlug: string | null;
                            agentRef: string | null;
                            progress: {
                                completedSteps: number;
                                totalSteps: number | null;
                            };
                            hold: {
                                /** @enum {string} */
                                previousStatus: "COMPLETED" | "FAILED" | "CANCELLED";
                                at: string;
                            } | null;
                            failure: {
                                whatFailed: string | null;
                                code: string;
                                message: string;
                                at: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                            steps: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                status: "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
                                attempts: number;
                                effects: {
                                    kind: string;
                                    target: string;
                                    undone: boolean;
                                }[];
                                output?: unknown;
                                startedAt: string;
                                endedAt: string | null;
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                            }[];
                            stepInFlight: number | null;
                            lastRollback: {
                                at: string;
                                undone: number;
                                notUndone: number;
                            } | null;
                            result?: unknown;
                            endedAt: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiMemory: {
        parameters: {
            query?: {
                search?: string;
                namespaceType?: "user" | "agent" | "subagent" | "workspace" | "workflow" | "app" | "skill";
                namespaceId?: string;
                export?: "0" | "1" | "true" | "false";
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entries, or the export */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: {
                            key: string;
                            /** @enum {string} */
                            namespaceType: "user" | "agent" | "subagent" | "workspace" | "workflow" | "app" | "skill";
                            namespaceId: string;
                            /** @enum {string} */
                            visibility: "private" | "workspace" | "public";
                            content: unknown;
                            tags: string[];
                            createdAt: string;
                            updatedAt: string;
                            version: number;
                            owned: boolean;
                        }[];
                        viewerAgentId: string | null;
                    } | {
                        exportedAt: string;
                        /** @constant */
                        format: "ars.memory.v1";
                        entries: {
                            key: string;
                            /** @enum {string} */
                            namespaceType: "user" | "agent" | "subagent" | "workspace" | "workflow" | "app" | "skill";
                            namespaceId: string;
                            /** @enum {string} */
                            visibility: "private" | "workspace" | "public";
                            content: unknown;
                            tags: string[];
                            createdAt: string;
                            updatedAt: string;
                            version: number;
                            owned: boolean;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiMemory: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "key": "favourite-colour",
                 *       "content": {
                 *         "value": "teal"
                 *       },
                 *       "tags": [
                 *         "profile"
                 *       ]
                 *     }
                 */
                "application/json": {
                    key: string;
                    content: unknown;
                    /**
                     * @default user
                     * @enum {string}
                     */
                    namespaceType?: "user" | "agent" | "subagent" | "workspace" | "workflow" | "app" | "skill";
                    namespaceId?: string;
                    /** @enum {string} */
                    visibility?: "private" | "workspace" | "public";
                    tags?: string[];
                    workspaceId?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entry: {
                            key: string;
                            /** @enum {string} */
                            namespaceType: "user" | "agent" | "subagent" | "workspace" | "workflow" | "app" | "skill";
                            namespaceId: string;
                            /** @enum {string} */
                            visibility: "private" | "workspace" | "public";
                            content: unknown;
                            tags: string[];
                            createdAt: string;
                            updatedAt: string;
                            version: number;
                            owned: boolean;
                        };
                        execution: {
                            id: string;
                            type: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                            sourceType: string;
                            title: string;
                            workspaceId: string;
                            sessionId: string | null;
                            workflowId: string | null;
                            appSlug: string | null;
                            skillSlug: string | null;
                            agentRef: string | null;
                            progress: {
                                completedSteps: number;
                                totalSteps: number | null;
                            };
                            hold: {
                                /** @enum {string} */
                                previousStatus: "COMPLETED" | "FAILED" | "CANCELLED";
                                at: string;
                            } | null;
                            failure: {
                                whatFailed: string | null;
                                code: string;
                                message: string;
                                at: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                            steps: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                status: "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
                                attempts: number;
                                effects: {
                                    kind: string;
                                    target: string;
                                    undone: boolean;
                                }[];
                                output?: unknown;
                                startedAt: string;
                                endedAt: string | null;
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                            }[];
                            stepInFlight: number | null;
                            lastRollback: {
                                at: string;
                                undone: number;
                                notUndone: number;
                            } | null;
                            result?: unknown;
                            endedAt: string | null;
                        };
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entry: {
                            key: string;
                            /** @enum {string} */
                            namespaceType: "user" | "agent" | "subagent" | "workspace" | "workflow" | "app" | "skill";
                            namespaceId: string;
                            /** @enum {string} */
                            visibility: "private" | "workspace" | "public";
                            content: unknown;
                            tags: string[];
                            createdAt: string;
                            updatedAt: string;
                            version: number;
                            owned: boolean;
                        };
                        execution: {
                            id: string;
                            type: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                            sourceType: string;
                            title: string;
                            workspaceId: string;
                            sessionId: string | null;
                            workflowId: string | null;
                            appSlug: string | null;
                            skillSlug: string | null;
                            agentRef: string | null;
                            progress: {
                                completedSteps: number;
                                totalSteps: number | null;
                            };
                            hold: {
                                /** @enum {string} */
                                previousStatus: "COMPLETED" | "FAILED" | "CANCELLED";
                                at: string;
                            } | null;
                            failure: {
                                whatFailed: string | null;
                                code: string;
                                message: string;
                                at: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                            steps: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                status: "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
                                attempts: number;
                                effects: {
                                    kind: string;
                                    target: string;
                                    undone: boolean;
                                }[];
                                output?: unknown;
                                startedAt: string;
                                endedAt: string | null;
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                            }[];
                            stepInFlight: number | null;
                            lastRollback: {
                                at: string;
                                undone: number;
                                notUndone: number;
                            } | null;
                            result?: unknown;
                            endedAt: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiMemory: {
        parameters: {
            query: {
                key: string;
                namespaceType?: "user" | "agent" | "subagent" | "workspace" | "workflow" | "app" | "skill";
                namespaceId?: string;
            };
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        key: string;
                        /** @enum {string} */
                        namespaceType: "user" | "agent" | "subagent" | "workspace" | "workflow" | "app" | "skill";
                        namespaceId: string;
                        execution: {
                            id: string;
                            type: string;
                            /** @enum {string} */
                            status: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "CANCELLED";
                            sourceType: string;
                            title: string;
                            workspaceId: string;
                            sessionId: string | null;
                            workflowId: string | null;
                            appSlug: string | null;
                            skillSlug: string | null;
                            agentRef: string | null;
                            progress: {
                                completedSteps: number;
                                totalSteps: number | null;
                            };
                            hold: {
                                /** @enum {string} */
                                previousStatus: "COMPLETED" | "FAILED" | "CANCELLED";
                                at: string;
                            } | null;
                            failure: {
                                whatFailed: string | null;
                                code: string;
                                message: string;
                                at: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                            steps: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                status: "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
                                attempts: number;
                                effects: {
                                    kind: string;
                                    target: string;
                                    undone: boolean;
                                }[];
                                output?: unknown;
                                startedAt: string;
                                endedAt: string | null;
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                            }[];
                            stepInFlight: number | null;
                            lastRollback: {
                                at: string;
                                undone: number;
                                notUndone: number;
                            } | null;
                            result?: unknown;
                            endedAt: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiWorkspaces: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workspaces: {
                            id: string;
                            name: string;
                            isDefault: boolean;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member";
                            owned: boolean;
                            createdAt: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiWorkspaces: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Platform team"
                 *     }
                 */
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workspace: {
                            id: string;
                            name: string;
                            isDefault: boolean;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member";
                            owned: boolean;
                            createdAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiWorkspacesByWorkspaceId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workspace: {
                            id: string;
                            name: string;
                            isDefault: boolean;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member";
                            owned: boolean;
                            createdAt: string;
                        };
                        members: {
                            id: string | null;
                            /** @enum {string} */
                            kind: "account" | "agent";
                            /** @enum {string} */
                            role: "owner" | "admin" | "member";
                            email?: string;
                            agentRef?: string;
                            name?: string;
                            addedAt: string;
                        }[];
                        invitations?: {
                            id: string;
                            /** @enum {string} */
                            kind: "account" | "agent";
                            /** @enum {string} */
                            role: "admin" | "member";
                            email?: string;
                            agentRef?: string;
                            /** @constant */
                            status: "pending";
                            invitedAt: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiWorkspacesByWorkspaceIdMembers: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "grace@example.com",
                 *       "role": "member"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email?: string;
                    /** Format: starts_with */
                    agentRef?: string;
                    /** Format: starts_with */
                    agentId?: string;
                    /**
                     * @default member
                     * @enum {string}
                     */
                    role?: "admin" | "member";
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        member: {
                            id: string | null;
                            /** @enum {string} */
                            kind: "account" | "agent";
                            /** @enum {string} */
                            role: "owner" | "admin" | "member";
                            email?: string;
                            agentRef?: string;
                            name?: string;
                            addedAt: string;
                        };
                    };
                };
            };
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        invitation: {
                            id: string;
                            /** @enum {string} */
                            kind: "account" | "agent";
                            /** @enum {string} */
                            role: "admin" | "member";
                            email?: string;
                            agentRef?: string;
                            /** @constant */
                            status: "pending";
                            invitedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiWorkspacesByWorkspaceIdInvitationsByInvitationId: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        revoked: true;
                        invitation: {
                            id: string;
                            /** @enum {string} */
                            kind: "account" | "agent";
                            /** @enum {string} */
                            role: "admin" | "member";
                            email?: string;
                            agentRef?: string;
                            /** @constant */
                            status: "pending";
                            invitedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiWorkspaceInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        invitations: {
                            id: string;
                            /** @enum {string} */
                            kind: "account" | "agent";
                            /** @enum {string} */
                            role: "admin" | "member";
                            workspace: {
                                id: string;
                                name: string;
                            };
                            invitedBy: {
                                email: string | null;
                            };
                            agentRef?: string;
                            invitedAt: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiWorkspaceInvitationsByInvitationIdAccept: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        accepted: true;
                        workspace: {
                            id: string;
                            name: string;
                        };
                        member: {
                            id: string | null;
                            /** @enum {string} */
                            kind: "account" | "agent";
                            /** @enum {string} */
                            role: "owner" | "admin" | "member";
                            email?: string;
                            agentRef?: string;
                            name?: string;
                            addedAt: string;
                        };
                    } | {
                        /** @constant */
                        accepted: false;
                        invitation: {
                            id: string;
                            /** @constant */
                            status: "declined";
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiWorkspaceInvitationsByInvitationIdDecline: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        accepted: true;
                        workspace: {
                            id: string;
                            name: string;
                        };
                        member: {
                            id: string | null;
                            /** @enum {string} */
                            kind: "account" | "agent";
                            /** @enum {string} */
                            role: "owner" | "admin" | "member";
                            email?: string;
                            agentRef?: string;
                            name?: string;
                            addedAt: string;
                        };
                    } | {
                        /** @constant */
                        accepted: false;
                        invitation: {
                            id: string;
                            /** @constant */
                            status: "declined";
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiWorkspacesByWorkspaceIdMembersByMemberId: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                workspaceId: string;
                memberId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        removed: true;
                        member: {
                            id: string | null;
                            /** @enum {string} */
                            kind: "account" | "agent";
                            /** @enum {string} */
                            role: "owner" | "admin" | "member";
                            email?: string;
                            agentRef?: string;
                            name?: string;
                            addedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiOpsCrew: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        summary: {
                            features: number;
                            fullyCovered: number;
                            degraded: number;
                            uncovered: number;
                            nodes: number;
                            byKind: {
                                actor: number;
                                runtime: number;
                                duty: number;
                                skill: number;
                                app: number;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        settings: {
                            [key: string]: unknown;
                        };
                        coverage: {
                            /** @enum {string} */
                            status: "fullyCovered" | "degraded" | "uncovered";
                            items?: ({
                                featureSlug: string;
                                /** @enum {string} */
                                kind: "actor" | "runtime" | "duty" | "skill" | "app";
                                /** @enum {string} */
                                coverage: "fullyCovered" | "degraded" | "uncovered";
                                active: {
                                    nodeId: string;
                                    heartbeatAgeMs: number;
                                } | null;
                                standby: {
                                    nodeId: string;
                                    heartbeatAgeMs: number;
                                } | null;
                                uses?: string[];
                            } & {
                                [key: string]: unknown;
                            })[];
                            nodes?: {
                                [key: string]: unknown;
                            }[];
                        } & {
                            [key: string]: unknown;
                        };
                        requiresAuthForDetails: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            401: components["responses"]["Error401"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiOpsCrewBootstrap: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        result: unknown;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiOpsCrewFailover: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    featureSlug: string;
                    /** @default manual failover */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiOpsCrewCron: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                        result: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            401: components["responses"]["Error401"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiOpsMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        summary: {
                            [key: string]: unknown;
                        };
                        settings: {
                            [key: string]: unknown;
                        };
                        metrics: {
                            [key: string]: unknown;
                        } | null;
                        requiresAuthForDetails: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            401: components["responses"]["Error401"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text format */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["Error401"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getWellKnownOauthAuthorizationServer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        issuer: string;
                        authorization_endpoint: string;
                        token_endpoint: string;
                        registration_endpoint: string;
                        revocation_endpoint: string;
                        code_challenge_methods_supported: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            default: components["responses"]["ErrorDefault"];
        };
    };
    postOauthRegister: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "redirect_uris": [
                 *         "http://127.0.0.1:6274/callback"
                 *       ],
                 *       "client_name": "My MCP client"
                 *     }
                 */
                "application/json": {
                    redirect_uris: string[];
                    client_name?: string;
                    grant_types?: string[];
                    response_types?: string[];
                    token_endpoint_auth_method?: string;
                    scope?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        client_id: string;
                        redirect_uris: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Refused client metadata */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            default: components["responses"]["ErrorDefault"];
        };
    };
    getOauthAuthorize: {
        parameters: {
            query?: {
                response_type?: string;
                client_id?: string;
                redirect_uri?: string;
                code_challenge?: string;
                code_challenge_method?: string;
                state?: string;
                scope?: string;
                resource?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sign-in page, or the consent page for a signed-in browser */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Back to the client’s redirect URI with an error */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A request that cannot be sent back to the client (unknown client or redirect URI) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            401: components["responses"]["Error401"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postOauthAuthorize: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    response_type?: string;
                    client_id?: string;
                    redirect_uri?: string;
                    code_challenge?: string;
                    code_challenge_method?: string;
                    state?: string;
                    scope?: string;
                    resource?: string;
                };
            };
        };
        responses: {
            /** @description The page again, with what went wrong (a bad password, say) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Back to the client’s redirect URI with `code` and `state`, or an error */
            302: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A malformed authorization request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            401: components["responses"]["Error401"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postOauthToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @constant */
                    grant_type: "authorization_code";
                    code: string;
                    redirect_uri: string;
                    client_id: string;
                    code_verifier: string;
                    resource?: string;
                } | {
                    /** @constant */
                    grant_type: "refresh_token";
                    refresh_token: string;
                    client_id: string;
                    resource?: string;
                    scope?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access_token: string;
                        token_type: string;
                        expires_in: number;
                        refresh_token: string;
                        scope: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description invalid_grant, invalid_request… */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            default: components["responses"]["ErrorDefault"];
        };
    };
    postOauthRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    token: string;
                    token_type_hint?: string;
                    client_id: string;
                };
            };
        };
        responses: {
            /** @description Revoked, or nothing to revoke (unknown, expired or another client’s token) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: no token */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description invalid_client: unknown or missing client_id */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiSocialPlatforms: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        platforms: ({
                            id: string;
                            /** @enum {string} */
                            status: "live" | "scaffolded";
                            connectorReady: boolean;
                            connectedCount: number;
                        } & {
                            [key: string]: unknown;
                        })[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiXConnect: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "redirectTo": "/settings/social"
                 *     }
                 */
                "application/json": {
                    /** @default / */
                    redirectTo?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        authorizationUrl: string;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiXCallback: {
        parameters: {
            query: {
                state: string;
                code?: string;
                error?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the `redirectTo` of the connect call */
            302: {
                headers: {
                    /** @description the in-app path */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            502: components["responses"]["Error502"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiXAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        accounts: ({
                            id: string;
                            username: string;
                            status: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    deleteApiXAccountsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                        id: string;
                        revoked: boolean;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiXDrafts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        drafts: {
                            id: string;
                            accountId: string;
                            /** @enum {string} */
                            kind: "post" | "reply";
                            text: string;
                            inReplyTo?: string;
                            weighted_length: number;
                            /** @enum {string} */
                            approval_status: "required" | "approved" | "rejected";
                            /** @enum {string} */
                            guardrail_status: "pass" | "review" | "block";
                            guardrail_reasons: string[];
                            similarity_score: number;
                            /** @description `api` or `agent:<agentRef>` */
                            createdBy: string;
                            createdAt: string;
                            decidedAt: string | null;
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiXDrafts: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    accountId: string;
                    text: string;
                    /**
                     * @default post
                     * @enum {string}
                     */
                    kind?: "post" | "reply";
                    inReplyTo?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        draft: {
                            id: string;
                            accountId: string;
                            /** @enum {string} */
                            kind: "post" | "reply";
                            text: string;
                            inReplyTo?: string;
                            weighted_length: number;
                            /** @enum {string} */
                            approval_status: "required" | "approved" | "rejected";
                            /** @enum {string} */
                            guardrail_status: "pass" | "review" | "block";
                            guardrail_reasons: string[];
                            similarity_score: number;
                            /** @description `api` or `agent:<agentRef>` */
                            createdBy: string;
                            createdAt: string;
                            decidedAt: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiXDraftsByIdApprove: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    scheduledFor?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        draft: {
                            id: string;
                            accountId: string;
                            /** @enum {string} */
                            kind: "post" | "reply";
                            text: string;
                            inReplyTo?: string;
                            weighted_length: number;
                            /** @enum {string} */
                            approval_status: "required" | "approved" | "rejected";
                            /** @enum {string} */
                            guardrail_status: "pass" | "review" | "block";
                            guardrail_reasons: string[];
                            similarity_score: number;
                            /** @description `api` or `agent:<agentRef>` */
                            createdBy: string;
                            createdAt: string;
                            decidedAt: string | null;
                        };
                        queueItem: {
                            id: string;
                            draftId: string;
                            /** @enum {string} */
                            publish_status: "queued" | "published" | "failed" | "canceled";
                            scheduled_for: string;
                            account: {
                                id: string;
                                username: string;
                            };
                            text: string;
                            attempts: number;
                            /** @description while queued: when the next attempt may run */
                            nextAttemptAt: string | null;
                            postId: string | null;
                            publishedAt: string | null;
                            /** @description why the last attempt failed */
                            reason: string | null;
                            /** @description the last attempt’s SOCIAL_PUBLISH execution */
                            executionId: string | null;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiXDraftsByIdReject: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        draft: {
                            id: string;
                            accountId: string;
                            /** @enum {string} */
                            kind: "post" | "reply";
                            text: string;
                            inReplyTo?: string;
                            weighted_length: number;
                            /** @enum {string} */
                            approval_status: "required" | "approved" | "rejected";
                            /** @enum {string} */
                            guardrail_status: "pass" | "review" | "block";
                            guardrail_reasons: string[];
                            similarity_score: number;
                            /** @description `api` or `agent:<agentRef>` */
                            createdBy: string;
                            createdAt: string;
                            decidedAt: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getApiXQueue: {
        parameters: {
            query?: {
                status?: "queued" | "published" | "failed" | "canceled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queue: {
                            id: string;
                            draftId: string;
                            /** @enum {string} */
                            publish_status: "queued" | "published" | "failed" | "canceled";
                            scheduled_for: string;
                            account: {
                                id: string;
                                username: string;
                            };
                            text: string;
                            attempts: number;
                            /** @description while queued: when the next attempt may run */
                            nextAttemptAt: string | null;
                            postId: string | null;
                            publishedAt: string | null;
                            /** @description why the last attempt failed */
                            reason: string | null;
                            /** @description the last attempt’s SOCIAL_PUBLISH execution */
                            executionId: string | null;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiXQueueByIdCancel: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queueItem: {
                            id: string;
                            draftId: string;
                            /** @enum {string} */
                            publish_status: "queued" | "published" | "failed" | "canceled";
                            scheduled_for: string;
                            account: {
                                id: string;
                                username: string;
                            };
                            text: string;
                            attempts: number;
                            /** @description while queued: when the next attempt may run */
                            nextAttemptAt: string | null;
                            postId: string | null;
                            publishedAt: string | null;
                            /** @description why the last attempt failed */
                            reason: string | null;
                            /** @description the last attempt’s SOCIAL_PUBLISH execution */
                            executionId: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    postApiXPublish: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key run once and replay the first answer (docs/http.md). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    draftId?: string;
                    /** Format: uuid */
                    queueId?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        draftId: string;
                        queueId: string;
                        postId: string;
                        publishedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            502: components["responses"]["Error502"];
            default: components["responses"]["ErrorDefault"];
        };
    };
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            default: components["responses"]["ErrorDefault"];
        };
    };
    getDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            default: components["responses"]["ErrorDefault"];
        };
    };
    getDocsAssetsByFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            400: components["responses"]["Error400"];
            404: components["responses"]["Error404"];
            default: components["responses"]["ErrorDefault"];
        };
    };
}
