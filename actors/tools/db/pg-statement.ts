import {
  parseCommandTag,
  rowBytes,
  type DbErrorFields,
  type RawField,
  type RawResult,
  type SqlStep,
} from './sql-executor';

/** The pieces of pg's Connection a custom query drives (pg's "Submittable" protocol). */
interface WireConnection {
  stream: { cork?: () => void; uncork?: () => void };
  query(text: string): void;
  parse(msg: { text: string }, more?: boolean): void;
  bind(msg: { values: (string | null)[] }, more?: boolean): void;
  describe(msg: { type: 'P' }, more?: boolean): void;
  execute(msg: { rows: number }, more?: boolean): void;
  flush(): void;
  sync(): void;
  sendCopyFail?(message: string): void;
}

interface FieldMessage {
  name: string;
  dataTypeID: number;
}

export const isBackendError = (err: unknown): err is Error & Record<string, unknown> =>
  err instanceof Error && typeof (err as { code?: unknown }).code === 'string' && 'severity' in err;

export function errorFields(err: Error & Record<string, unknown>): DbErrorFields {
  const text = (key: string) => (typeof err[key] === 'string' ? (err[key] as string) : undefined);
  return {
    sqlstate: String(err.code),
    message: err.message,
    detail: text('detail'),
    hint: text('hint'),
    position: text('position'),
    schema: text('schema'),
    table: text('table'),
    column: text('column'),
    constraint: text('constraint'),
  };
}

/**
 * One statement as a pg "submittable": pg hands it the connection and forwards the backend's
 * messages to its `handle*` methods. It exists for `maxRows`: the rows are fetched with one
 * Execute limited to `maxRows` and the portal is then left suspended (pg's own `rows` option would
 * fetch everything in batches). Values stay in text format; decoding is the service's.
 */
export class PgStatement {
  private fields: RawField[] = [];
  private rows: (string | null)[][] = [];
  private command?: string;
  private rowCount?: number;
  private suspended = false;
  private cut = false;
  private bytes = 0;
  private failure?: Error;
  /** Rows capped: Execute was followed by Flush, so a Sync is owed once the portal stops. */
  private readonly paged: boolean;

  constructor(
    private readonly step: SqlStep,
    /** Row bytes this statement may keep (the rest of the call's budget). */
    private readonly maxBytes: number,
    private readonly done: (err: Error | undefined, result?: RawResult) => void,
  ) {
    this.paged = step.params !== undefined && step.maxRows !== undefined && step.maxRows > 0;
  }

  submit(connection: WireConnection): null {
    const { sql, params, maxRows } = this.step;
    if (params === undefined) {
      connection.query(sql);
      return null;
    }
    connection.stream.cork?.();
    try {
      connection.parse({ text: sql }, true);
      connection.bind({ values: params }, true);
      connection.describe({ type: 'P' }, true);
      connection.execute({ rows: this.paged ? (maxRows ?? 0) : 0 }, true);
      if (this.paged) connection.flush();
      else connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(msg: { fields: FieldMessage[] }): void {
    this.fields = msg.fields.map((f) => ({ name: f.name, typeOid: f.dataTypeID }));
    this.rows = [];
  }

  handleDataRow(msg: { fields: (string | null)[] }): void {
    if (this.cut) return;
    const size = rowBytes(msg.fields);
    if (this.bytes + size > this.maxBytes) {
      // Past the budget: the server still sends up to maxRows rows, but none is kept.
      this.cut = true;
      return;
    }
    this.bytes += size;
    this.rows.push(msg.fields);
  }

  handlePortalSuspended(connection: WireConnection): void {
    this.suspended = true;
    connection.sync();
  }

  handleCommandComplete(msg: { text: string }, connection: WireConnection): void {
    const tag = parseCommandTag(msg.text);
    this.command = tag.command;
    this.rowCount = tag.rowCount;
    if (this.paged) connection.sync();
  }

  handleEmptyQuery(connection: WireConnection): void {
    if (this.paged) connection.sync();
  }

  handleError(err: Error, connection: WireConnection): void {
    // After an ErrorResponse the server skips to the next Sync, which a paged statement still owes.
    if (this.paged && isBackendError(err)) connection.sync();
    if (this.failure) return;
    this.failure = err;
    this.done(err);
  }

  handleReadyForQuery(): void {
    if (this.failure) return;
    this.done(undefined, {
      fields: this.fields,
      rows: this.rows,
      command: this.command,
      rowCount: this.rowCount,
      suspended: this.suspended,
      cut: this.cut,
      bytes: this.bytes,
    });
  }

  handleCopyInResponse(connection: WireConnection): void {
    connection.sendCopyFail?.('COPY is not supported');
  }

  handleCopyData(): void {}
}
