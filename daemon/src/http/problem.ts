import type { Socket } from 'node:net';
import type { ErrorRequestHandler, Request, Response } from 'express';
import { systemClock, type Clock } from '../core/clock.ts';
import { KeyedLimiter } from '../core/keyed-limiter.ts';
import type { Logger } from '../core/logger.ts';
import { problemBody, toProblemError } from '../core/problem-body.ts';
import type { ProblemError } from '../core/problem-error.ts';

export const problemContentType = 'application/problem+json';

export function sendProblem(res: Response, err: ProblemError): void {
  const requestId = String(res.getHeader('X-Request-Id') ?? '');
  for (const [name, value] of Object.entries(err.headers ?? {})) res.setHeader(name, value);
  res
    .status(err.status)
    .type(problemContentType)
    .send(JSON.stringify(problemBody(err, requestId)));
}

/** Refused requests logged per client address: a burst of 30, then one every 2 s; the rest are counted and named with the next line. */
const refusalBurst = 30;
const refusalsPerSecond = 0.5;

/**
 * The last middleware: every failure leaves as problem details, the unexpected ones logged with
 * their stack. Refusals (4xx) are logged at info with method, path (without its query, which may
 * hold a search or a token), code and, through the request context, the user and request id, so
 * the id a person reads in an error message finds its entry; never a body.
 */
export function problemHandler(logger: Logger, clock: Clock = systemClock): ErrorRequestHandler {
  const limiter = new KeyedLimiter(refusalBurst, refusalsPerSecond, clock);
  const unlogged = new Map<string, number>();
  const logRefusal = (address: string, fields: Record<string, unknown>) => {
    if (limiter.take(address, 1) === 0) {
      // Bounded like the limiter's map: past that, a flood from many addresses is simply not counted.
      if (unlogged.has(address) || unlogged.size < 1024) unlogged.set(address, (unlogged.get(address) ?? 0) + 1);
      return;
    }
    const skipped = unlogged.get(address);
    unlogged.delete(address);
    logger.info('request refused', { component: 'http', ...fields, ...(skipped ? { address, notLoggedBefore: skipped } : {}) });
  };
  return (err: unknown, req, res, _next) => {
    const problem = toProblemError(err);
    const fields = { method: req.method, path: req.path, status: problem.status, code: problem.code };
    if (problem.code === 'server.internal.error') logger.error('request failed', { component: 'http', ...fields, error: describe(problem.cause ?? err) });
    // A known state of the box (a program not installed): said once per request, without a stack.
    else if (problem.status >= 500) logger.warn('request not served', { component: 'http', ...fields, params: problem.params });
    else logRefusal(req.ip ?? req.socket?.remoteAddress ?? 'unknown', fields);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendProblem(res, problem);
    discardBody(req);
  };
}

/** What of a refused body is read into the void on the kept-alive connection; past it the connection closes. */
const discardBytes = 64 * 1024 * 1024;
/** A lingering close lasts at most this long, and ends after this much silence (nginx's lingering_time and _timeout). */
const lingerMs = 30_000;
const lingerIdleMs = 5_000;

/**
 * A body refused before it was read (too large, a wrong route) would leave a client blocked
 * writing it and never reading the answer. The rest is read and dropped, so the connection
 * stays usable for the next request; a body that goes on past a limit gets a lingering close.
 * Called once the answer is written: the close must follow it, never pass it.
 */
function discardBody(req: Request): void {
  if (req.complete || req.readableEnded) return;
  // The rest is read either way: a socket nobody reads would hold a client that is still sending.
  req.resume();
  // A declared length past the limit is known now: no need to read up to it first.
  if (Number(req.headers['content-length'] ?? 0) > discardBytes) return lingeringClose(req.socket);
  let left = discardBytes;
  const onData = (chunk: Buffer) => {
    left -= chunk.length;
    if (left >= 0) return;
    req.off('data', onData);
    lingeringClose(req.socket);
  };
  req.on('data', onData);
}

/**
 * Closes a connection whose client is still sending, as nginx's lingering close does: the answer
 * goes out followed by a FIN, and what still arrives is read and dropped until the client is done
 * (or the time is up). Closing the socket at once would make the kernel answer the next bytes with
 * a reset, and a reset can destroy the answer before the client read it: a browser uploading a
 * too-large file would show a network error instead of the 413.
 */
function lingeringClose(socket: Socket): void {
  socket.end();
  const close = () => socket.destroy();
  const deadline = setTimeout(close, lingerMs);
  socket.setTimeout(lingerIdleMs, close);
  socket.once('end', close).once('close', () => clearTimeout(deadline));
}

function describe(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { value: String(err) };
}
