import { ConfigError, loadConfig } from '../../../src/config/load-config';
import { createTransport } from '../../../src/boot/transport-factory';
import { silentLogger } from '../../../src/logging/logger';
import type { AmqpTransport } from '../../../src/transport/amqp/amqp.transport';

describe('AMQP_PREFIX', () => {
  it("defaults to 'ars' and names the transport's queues", () => {
    expect(loadConfig({}).AMQP_PREFIX).toBe('ars');
    const config = loadConfig({
      AMQP_URL: 'amqp://127.0.0.1:5672',
      AMQP_PREFIX: 'staging.eu-1',
      NODE_ID: 'n1',
    });
    const transport = createTransport(config, silentLogger) as AmqpTransport;
    expect(transport.names.commandQueue('ops')).toBe('staging.eu-1.actor.ops');
  });

  it('refuses names RabbitMQ users would trip over', () => {
    expect(() => loadConfig({ AMQP_PREFIX: 'has space' })).toThrow(ConfigError);
    expect(() => loadConfig({ AMQP_PREFIX: '' })).toThrow(ConfigError);
  });
});
