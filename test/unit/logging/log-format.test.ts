import { loadConfig } from '../../../src/config/load-config';
import { chooseLogFormat, createLogger } from '../../../src/logging/logger';

/** A destination that keeps what the logger wrote. */
function sink() {
  const chunks: string[] = [];
  return { chunks, stream: { write: (chunk: string) => void chunks.push(chunk) } };
}

describe('log format', () => {
  it('is pretty on a terminal and JSON otherwise by default (LOG_FORMAT=auto)', () => {
    const { LOG_FORMAT } = loadConfig({});
    expect(LOG_FORMAT).toBe('auto');
    expect(chooseLogFormat(LOG_FORMAT, true)).toBe('pretty');
    expect(chooseLogFormat(LOG_FORMAT, false)).toBe('json');
    expect(chooseLogFormat(LOG_FORMAT, undefined)).toBe('json');
  });

  it('follows LOG_FORMAT=json or pretty whatever stdout is', () => {
    for (const terminal of [true, false, undefined]) {
      expect(chooseLogFormat(loadConfig({ LOG_FORMAT: 'json' }).LOG_FORMAT, terminal)).toBe('json');
      expect(chooseLogFormat(loadConfig({ LOG_FORMAT: 'pretty' }).LOG_FORMAT, terminal)).toBe('pretty');
    }
  });

  it('refuses another LOG_FORMAT, naming the variable', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('json: one JSON object per line, with the node id and redaction', () => {
    const { chunks, stream } = sink();
    const logger = createLogger({ level: 'info', nodeId: 'n1', destination: stream, format: 'json' });
    logger.info({ component: 'kernel', password: 'hunter22' }, 'front door listening');
    expect(chunks).toHaveLength(1);
    expect(JSON.parse(chunks[0])).toMatchObject({
      level: 30,
      nodeId: 'n1',
      component: 'kernel',
      password: '[redacted]',
      msg: 'front door listening',
    });
  });

  it('pretty: a readable line per entry, written at once, redacted, without colours unless asked', () => {
    const { chunks, stream } = sink();
    const logger = createLogger({ level: 'info', nodeId: 'n1', destination: stream, format: 'pretty' });
    logger.fatal({ password: 'hunter22' }, 'cannot start: no way');
    // Synchronous: a fatal line logged right before process.exit is not lost.
    expect(chunks).toHaveLength(1);
    const text = chunks[0];
    expect(text).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] FATAL: cannot start: no way\n/);
    expect(text).not.toContain('n1');
    expect(text).toContain('password: "[redacted]"');
    expect(text).not.toContain('hunter22');
    expect(text).not.toContain('\u001b[');
    expect(() => JSON.parse(text)).toThrow();
  });

  it('pretty with colorize: ANSI colours (for a terminal)', () => {
    const { chunks, stream } = sink();
    createLogger({ level: 'info', destination: stream, format: 'pretty', colorize: true }).warn('careful');
    expect(chunks[0]).toContain('\u001b[');
    expect(chunks[0]).toContain('careful');
  });
});
