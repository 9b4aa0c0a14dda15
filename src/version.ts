import packageJson from '../package.json';

/** The service's version (package.json), reported by `GET /health` and MCP's `serverInfo`. */
export const SERVICE_VERSION: string = packageJson.version;
