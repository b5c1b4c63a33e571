import { errorCatalog, problemType, type ProblemDetails } from '../../../shared/src/errors/index.ts';
import { ProblemError } from './problem-error.ts';

// The problem-details body is the daemon's one error shape (HTTP answers, topic acks, job results): it lives below them all.

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
