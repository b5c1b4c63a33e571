import winston from 'winston';
import Transport from 'winston-transport';
import { currentContext } from './request-context.ts';
import { redacted, redactSecrets } from './redact.ts';
import { terminalLine } from './terminal-line.ts';

/** Levels of the daemon's log, lowest first; config/config.ts takes them from here (the configuration sits above core). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One entry as the log store keeps it. */
export interface LogRecord {
  time: string;
  level: LogLevel;
  /** `daemon`, `system/<service>` or `app/<id>`. */
  source: string;
  message: string;
  fields: Record<string, unknown>;
  requestId: string | null;
  userId: number | null;
  /** What happened as a message code (`logs.msg.<code>` in the web's dictionaries), for readers in any language. */
  code?: string;
  /** The values the code's text may name: scalar fields of the entry, never a redacted one. */
  params?: LogParams;
}

export type LogParams = Record<string, string | number | boolean>;

/** Receives every entry the daemon logs (the log store). Must not block: batch and return. */
export interface LogSink {
  write(record: LogRecord): void;
}

export type Logger = winston.Logger;

const reserved = new Set(['level', 'message', 'timestamp', 'source', 'requestId', 'userId', 'logCode']);

/**
 * The params of a coded entry: its scalar fields after redaction. A redacted value never becomes
 * one (the English text of the journal and a German text alike could otherwise show a secret).
 */
export function logParams(fields: Record<string, unknown>): LogParams {
  const params: LogParams = {};
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'component' || value === redacted) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') params[key] = value;
  }
  return params;
}

/** Adds the request context and removes secrets before any transport sees an entry. */
const contextAndRedaction = winston.format((info) => {
  const ctx = currentContext();
  if (ctx && info.requestId === undefined) info.requestId = ctx.requestId;
  if (ctx?.userId !== undefined && info.userId === undefined) info.userId = ctx.userId;
  const extra = Object.fromEntries(Object.entries(info).filter(([key]) => !reserved.has(key)));
  Object.assign(info, redactSecrets(extra));
  info.timestamp ??= new Date().toISOString();
  info.source ??= 'daemon';
  return info;
});

class SinkTransport extends Transport {
  constructor(private readonly sink: LogSink) {
    super();
  }

  override log(info: Record<string | symbol, unknown>, next: () => void): void {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(info)) {
      if (!reserved.has(key)) fields[key] = value;
    }
    const code = typeof info.logCode === 'string' ? info.logCode : undefined;
    this.sink.write({
      time: String(info.timestamp),
      level: info.level as LogLevel,
      source: String(info.source),
      message: String(info.message ?? ''),
      fields,
      requestId: typeof info.requestId === 'string' ? info.requestId : null,
      userId: typeof info.userId === 'number' ? info.userId : null,
      ...(code ? { code, params: logParams(fields) } : {}),
    });
    next();
  }
}

export interface LoggerOptions {
  level: LogLevel;
  console: boolean;
  sinks: LogSink[];
  /** Console lines for a person (short, coloured) rather than JSON for the journal; by default when stdout is a terminal. */
  terminal?: boolean;
}

/** Short human lines on a terminal; one JSON object a line for the journal, which keeps every field. */
function consoleFormat(terminal: boolean): winston.Logform.Format {
  if (!terminal) return winston.format.json();
  return winston.format.printf((info) => terminalLine(info, true));
}

export function createLogger(options: LoggerOptions): Logger {
  const transports: winston.transport[] = options.sinks.map((sink) => new SinkTransport(sink));
  if (options.console) transports.push(new winston.transports.Console({ format: consoleFormat(options.terminal ?? process.stdout.isTTY === true) }));
  // winston refuses to log with no transport at all; a silent console keeps it quiet.
  if (transports.length === 0) transports.push(new winston.transports.Console({ silent: true }));
  return winston.createLogger({
    level: options.level,
    levels: { error: 0, warn: 1, info: 2, debug: 3 },
    format: contextAndRedaction(),
    transports,
  });
}
