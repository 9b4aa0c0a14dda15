import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent, MongoClient } from 'mongodb';
import type { TraceSpan, Tracer } from './tracing';

/** Commands of the driver's own upkeep: not the service's store calls. */
const UPKEEP = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'buildInfo', 'endSessions', 'killCursors']);

/**
 * A client span per document store command (tracing on only: the client then monitors commands;
 * without tracing it does not, and this is never called). The driver emits `commandStarted` in
 * the async context of the operation, so the span is a child of the caller's (a turn, a route).
 * Attributes name the command and the collection, never a filter or a document.
 */
export function traceMongoCommands(client: MongoClient, tracer: Tracer): void {
  const open = new Map<number, TraceSpan>();
  client.on('commandStarted', (e: CommandStartedEvent) => {
    if (UPKEEP.has(e.commandName)) return;
    const target = (e.command as Record<string, unknown>)[e.commandName];
    const collection = typeof target === 'string' ? target : undefined;
    open.set(
      e.requestId,
      tracer.startSpan(`${e.commandName} ${collection ?? e.databaseName}`, {
        kind: 'client',
        attributes: {
          'db.system.name': 'mongodb',
          'db.namespace': e.databaseName,
          'db.operation.name': e.commandName,
          'db.collection.name': collection,
        },
      }),
    );
  });
  const end = (e: CommandSucceededEvent | CommandFailedEvent, failure?: unknown) => {
    const span = open.get(e.requestId);
    if (!span) return;
    open.delete(e.requestId);
    if (failure !== undefined) span.fail(failure);
    span.end();
  };
  client.on('commandSucceeded', (e) => end(e));
  client.on('commandFailed', (e) => end(e, e.failure));
}
