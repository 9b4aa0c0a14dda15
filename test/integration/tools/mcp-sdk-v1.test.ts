import { clientScenarios, type ScenarioTarget } from './support/mcp-client-scenarios';
import { startInProcessTarget } from './support/mcp-client-target';

/**
 * The official SDK v1 client (`@modelcontextprotocol/sdk` 1.x, protocol 2025-11-25) against `/mcp`
 * in one process. The scenarios: support/mcp-client-scenarios.ts.
 */
let target: ScenarioTarget;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ target, stop } = await startInProcessTarget());
}, 60_000);
afterAll(async () => {
  await stop?.();
});

jest.setTimeout(90_000);

describe('SDK v1 client (2025-11-25)', () => clientScenarios('v1', () => target));
