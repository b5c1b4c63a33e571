import type { ErrorRequestHandler, Response } from 'express';
import { errorCatalog, problemType, type ProblemDetails } from '../../../shared/src/errors/index.ts';
import type { Logger } from '../core/logger.ts';
import { ProblemError } from '../core/problem-error.ts';

export const problemContentType = 'application/problem+json';

/** Turns anything thrown into a ProblemError; the unexpected becomes a 500 without internals. */
export function toProblemError(err: unknown): ProblemError {
  if (err instanceof ProblemError) return err;
  const e = err as { type?: string; status?: number; statusCode?: number; limit?: number; code?: string };
  // body-parser and raw-body mark their errors with a type; map them to the contract's codes.
  if (e?.type === 'entity.too.large') return new ProblemError('request.body.too_large', { limit: e.limit });
  if (e?.type === 'entity.parse.failed') return new ProblemError('request.body.invalid', { errors: [{ path: '', message: 'the body is not valid JSON' }] });
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return new ProblemError('request.media_type.unsupported');
  if (e?.type === 'request.aborted') return new ProblemError('request.body.invalid', { errors: [{ path: '', message: 'the request was aborted' }] });
  return new ProblemError('server.internal.error', undefined, { cause: err });
}

export function problemBody(err: ProblemError, requestId: string): ProblemDetails {
  const spec = errorCatalog[err.code];
  const body: ProblemDetails = {
    type: problemType(err.code),
    title: spec.title,
    status: err.status,
    detail: err.message,
    code: err.code,
    requestId,
  };
  if (err.params !== undefined) body.params = err.params;
  return body;
}

export function sendProblem(res: Response, err: ProblemError): void {
  const requestId = String(res.getHeader('X-Request-Id') ?? '');
  for (const [name, value] of Object.entries(err.headers ?? {})) res.setHeader(name, value);
  res
    .status(err.status)
    .type(problemContentType)
    .send(JSON.stringify(problemBody(err, requestId)));
}

/** The last middleware: every failure leaves as problem details, the unexpected ones logged with their stack. */
export function problemHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const problem = toProblemError(err);
    if (problem.status >= 500) {
      logger.error('request failed', { component: 'http', method: req.method, path: req.path, code: problem.code, error: describe(problem.cause ?? err) });
    } else {
      logger.debug('request refused', { component: 'http', method: req.method, path: req.path, code: problem.code });
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendProblem(res, problem);
  };
}

function describe(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { value: String(err) };
}
