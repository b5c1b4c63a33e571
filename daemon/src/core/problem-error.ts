import { errorCatalog, type ErrorCode } from '../../../shared/src/errors/index.ts';

/**
 * The one error type of the daemon: a code of the catalog plus the values it names.
 * The HTTP layer turns it into problem details; nothing matches on messages.
 */
export class ProblemError extends Error {
  readonly code: ErrorCode;
  readonly params: Record<string, unknown> | undefined;
  readonly status: number;
  /** Extra response headers, such as Retry-After. */
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, params?: Record<string, unknown>, options?: { detail?: string; headers?: Record<string, string>; cause?: unknown }) {
    super(options?.detail ?? errorCatalog[code].title, { cause: options?.cause });
    this.name = 'ProblemError';
    this.code = code;
    this.params = params;
    this.status = errorCatalog[code].status;
    this.headers = options?.headers;
  }
}
