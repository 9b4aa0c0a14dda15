import pino from 'pino';
import { loadConfig } from '../../../../src/config/load-config';
import { routeModules } from '../../../../actors/registry';
import type { Services } from '../../../../src/boot/services';
import type { AppDeps } from '../../../../src/http/app.types';
import { FakeSystem } from './fake-system';

/** A pino logger that keeps its lines in memory, parsed, for assertions on what gets logged. */
export function memoryLogger(level = 'debug') {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const logger = pino(
    { level, redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' } },
    {
      write(chunk: string) {
        raw.push(chunk);
        lines.push(JSON.parse(chunk) as Record<string, unknown>);
      },
    },
  );
  return { logger, lines, raw };
}

/** Deps for `buildApp` with a fake actor system whose `ops:health` says everything is up. */
export function testDeps(overrides: Partial<AppDeps<Services>> = {}, env: Record<string, string> = {}) {
  const system = new FakeSystem().onAsk('ops:health', 'ops.health', () => ({
    status: 'ok',
    dependencies: {
      transport: { state: 'up', embedded: true },
      documents: { state: 'up', embedded: true },
      cache: { state: 'up', embedded: true },
    },
  }));
  const { logger, lines, raw } = memoryLogger();
  // The process's route modules, as the service registers them (without services: each answers 503 where it needs one).
  const deps: AppDeps<Services> = {
    config: loadConfig({ BODY_LIMIT_BYTES: '2048', ...env }),
    logger,
    system,
    routes: routeModules,
    ...overrides,
  };
  return { deps, system, lines, raw };
}
