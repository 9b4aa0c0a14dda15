import { clientScenarios } from './support/mcp-client-scenarios';
import { useInProcessTarget } from './support/mcp-client-target';

/**
 * The official SDK v2 client (`@modelcontextprotocol/client`) against `/mcp` in one process:
 * pinned to 2026-07-28, and negotiating (`mode: 'auto'`, which finds 2026-07-28 through
 * `server/discover`). The scenarios: support/mcp-client-scenarios.ts.
 */
const target = useInProcessTarget();

jest.setTimeout(90_000);

describe('SDK v2 client pinned to 2026-07-28', () => clientScenarios('v2-pinned', target));
describe('SDK v2 client negotiating', () => clientScenarios('v2-auto', target));
