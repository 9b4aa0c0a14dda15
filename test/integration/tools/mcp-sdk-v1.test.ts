import { clientScenarios } from './support/mcp-client-scenarios';
import { useInProcessTarget } from './support/mcp-client-target';

/**
 * The official SDK v1 client (`@modelcontextprotocol/sdk` 1.x, protocol 2025-11-25) against `/mcp`
 * in one process. The scenarios: support/mcp-client-scenarios.ts.
 */
const target = useInProcessTarget();

jest.setTimeout(90_000);

describe('SDK v1 client (2025-11-25)', () => clientScenarios('v1', target));
