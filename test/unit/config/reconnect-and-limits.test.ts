import { ConfigError, loadConfig } from '../../../src/config/load-config';
import { createTransport } from '../../../src/boot/transport-factory';
import { silentLogger } from '../../../src/logging/logger';
import type { AmqpTransport } from '../../../src/transport/amqp/amqp.transport';

describe('AMQP_MAX_MESSAGE_BYTES', () => {
  it('defaults to 64 MiB and reaches the transport, which dead-letters longer commands unread', () => {
    expect(loadConfig({}).AMQP_MAX_MESSAGE_BYTES).toBe(64 * 1024 * 1024);
    const config = loadConfig({
      AMQP_URL: 'amqp://127.0.0.1:5672',
      AMQP_MAX_MESSAGE_BYTES: '4194304',
      NODE_ID: 'n1',
    });
    expect((createTransport(config, silentLogger) as AmqpTransport).maxMessageBytes).toBe(4 * 1024 * 1024);
  });

  it('refuses a limit below 1 KiB', () => {
    expect(() => loadConfig({ AMQP_MAX_MESSAGE_BYTES: '100' })).toThrow(ConfigError);
  });
});

describe('REDIS_RECONNECT_MAX_MS', () => {
  it('defaults to 500 ms: a Redis back from a cut is found within half a second', () => {
    expect(loadConfig({}).REDIS_RECONNECT_MAX_MS).toBe(500);
    expect(loadConfig({ REDIS_RECONNECT_MAX_MS: '2000' }).REDIS_RECONNECT_MAX_MS).toBe(2000);
    expect(() => loadConfig({ REDIS_RECONNECT_MAX_MS: '0' })).toThrow(ConfigError);
  });
});
