import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * RabbitMQ's management CLI. `RABBITMQCTL` may name another command, e.g.
 * `docker compose exec -T rabbitmq rabbitmqctl` when the broker runs in a container.
 */
function rabbitmqctl(args: string[]): Promise<{ stdout: string }> {
  const [command, ...prefix] = (process.env.RABBITMQCTL || 'rabbitmqctl').split(' ').filter(Boolean);
  return run(command, [...prefix, ...args], { timeout: 30000 });
}

export interface BrokerConnection {
  /** The connection's Erlang process id, which `close_connection` takes. */
  pid: string;
  /** The client's `connection_name` property, if it set one. */
  connectionName?: string;
}

/** Connections open on the broker, with the name each client gave itself. */
export async function listAmqpConnections(): Promise<BrokerConnection[]> {
  // The JSON formatter prints pids in a form close_connection does not accept; the plain one does.
  const { stdout } = await rabbitmqctl(['list_connections', 'pid', 'client_properties', '-s']);
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('<'))
    .map((line) => {
      const [pid, properties = ''] = line.split('\t');
      const name = /\{"connection_name","((?:[^"\\]|\\.)*)"\}/.exec(properties)?.[1];
      return { pid, connectionName: name };
    });
}

/**
 * Force-closes, on the broker side, only the connections whose `connection_name` starts with
 * `namePrefix` (other suites share the broker). Returns how many were closed.
 */
export async function closeAmqpConnections(namePrefix: string, reason = 'test'): Promise<number> {
  const targets = (await listAmqpConnections()).filter((c) => c.connectionName?.startsWith(namePrefix));
  await Promise.all(targets.map((c) => rabbitmqctl(['close_connection', c.pid, reason])));
  return targets.length;
}
