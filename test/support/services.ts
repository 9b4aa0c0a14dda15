/**
 * Which real services this test run can use. Filled by test/support/global-setup.js: a service is
 * present when it answered; absent services make their suites skip (and fail the run when
 * REQUIRE_SERVICES=1, which global-setup enforces).
 */
export type ServiceName = 'amqp' | 'redis' | 'postgres' | 'mongodb';

export function serviceUrl(name: ServiceName): string | undefined {
  return process.env[`TEST_${name.toUpperCase()}_URL`] || undefined;
}

/** `describe` when the service is reachable, `describe.skip` otherwise. */
export function describeWithService(name: ServiceName, title: string, fn: (url: string) => void): void {
  const url = serviceUrl(name);
  if (url) describe(title, () => fn(url));
  else describe.skip(`${title} (${name} not reachable: skipped)`, () => fn(''));
}
