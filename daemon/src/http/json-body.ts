import { AsyncResource } from 'node:async_hooks';
import type { Request, RequestHandler } from 'express';
import { ProblemError } from '../core/problem-error.ts';

const invalidJson = () => new ProblemError('request.body.invalid', { errors: [{ path: '', message: 'the body is not valid JSON' }] });

/** Whether the request carries a body at all (a length, or a chunked one). */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

/**
 * A route's JSON body, read up to `limit` bytes. Unlike body-parser, which reads a refused body
 * to its end before it answers (a client declaring 2 GiB kept the daemon reading 2 GiB into the
 * void before its 413), a declared length past the limit is refused before reading, and a longer
 * body stops being read at the limit; the problem handler then drops the rest within bounds.
 */
export function jsonBody(limit: number): RequestHandler {
  return (req, _res, callNext) => {
    // The request's events run outside this request's context (its id, its user): the rest of the
    // chain is called back in it, so its log entries still carry them.
    const next = AsyncResource.bind(callNext);
    if (!hasBody(req)) return next();
    if (!req.is('application/json')) return next(new ProblemError('request.media_type.unsupported'));
    const charset = /;\s*charset=["']?([^;"'\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if ((charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') || encoding !== 'identity') {
      return next(new ProblemError('request.media_type.unsupported'));
    }
    if (Number(req.headers['content-length'] ?? 0) > limit) return next(new ProblemError('request.body.too_large', { limit }));
    const chunks: Buffer[] = [];
    let bytes = 0;
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limit) return finish(new ProblemError('request.body.too_large', { limit }));
      chunks.push(chunk);
    };
    const onEnd = () => {
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
      } catch {
        return finish(invalidJson());
      }
      try {
        // An empty body stands for no fields, as body-parser had it.
        req.body = text.trim() === '' ? {} : (JSON.parse(text) as unknown);
      } catch {
        return finish(invalidJson());
      }
      finish();
    };
    const onAborted = () => finish(new ProblemError('request.body.invalid', { errors: [{ path: '', message: 'the request was aborted' }] }));
    function finish(err?: ProblemError): void {
      req.off('data', onData).off('end', onEnd).off('error', onAborted).off('aborted', onAborted);
      // Left paused on a refusal: the rest is the problem handler's to drop, within its bounds.
      if (err) req.pause();
      next(err);
    }
    req.on('data', onData).on('end', onEnd).on('error', onAborted).on('aborted', onAborted);
  };
}
