import type { Document } from 'bson';
import type { Logger } from '../../../logging/logger';
import type { CursorRegistry } from '../engine/cursors';
import type { Store } from '../engine/store';

/** What every command can reach: the data, the open cursors, the logger. */
export interface ServerContext {
  readonly store: Store;
  readonly cursors: CursorRegistry;
  readonly logger: Logger;
  readonly startedAt: Date;
}

/** One decoded command. */
export interface CommandRequest {
  readonly db: string;
  readonly cmd: Document;
  readonly connectionId: number;
  readonly ctx: ServerContext;
}

/** A reply document, or a reply body already encoded as BSON (cursor batches). */
export type CommandReply = Document | Buffer;

export type CommandHandler = (req: CommandRequest) => CommandReply | Promise<CommandReply>;
