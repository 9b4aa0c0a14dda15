import { startTestMcpServer, type TestMcpServer } from '../../connectors/support/test-mcp-server';
import type { ScenarioTarget } from './mcp-client-scenarios';
import { addConnector, signupAccount, startSlowUpstream } from './mcp-sdk-clients';
import { startRouterHarness, type RouterHarness } from './router-harness';

/**
 * One runtime in this process for the SDK client suites: loopback HTTP allowed (the slow upstream
 * and the connector's server are local), an enterprise account with the connector `memo`. `env`:
 * more configuration (e.g. a known PORT and its PUBLIC_BASE_URL, for OAuth clients).
 */
export async function startInProcessTarget(
  env: Record<string, string> = {},
): Promise<{ target: ScenarioTarget; harness: RouterHarness; email: string; stop(): Promise<void> }> {
  const h: RouterHarness = await startRouterHarness({}, { ALLOW_LOOPBACK_HTTP: 'true', ...env });
  const server: TestMcpServer = await startTestMcpServer();
  const slow = await startSlowUpstream();
  const { token, email } = await signupAccount(h.url);
  await addConnector(h.url, token, 'memo', server.url);
  return {
    target: {
      url: h.url,
      laterUrl: h.url,
      token,
      slowUrl: slow.url,
      connector: 'memo',
      busy: () => h.runtime.work.inFlight() > 0,
    },
    harness: h,
    email,
    async stop() {
      await h.stop();
      await server.stop().catch(() => undefined);
      await slow.close();
    },
  };
}

/**
 * One in-process target for the whole test file (`beforeAll`/`afterAll`): the scenarios' `target`
 * getter.
 */
export function useInProcessTarget(): () => ScenarioTarget {
  let target: ScenarioTarget | undefined;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ target, stop } = await startInProcessTarget());
  }, 60_000);
  afterAll(async () => {
    await stop?.();
  });
  return () => target!;
}
