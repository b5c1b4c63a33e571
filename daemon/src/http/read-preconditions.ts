import type { Request } from 'express';

/**
 * The reads served with Express's file sending offer revalidation (If-None-Match, If-Modified-Since) and
 * ranges (If-Range), nothing else: the document names no If-Match or If-Unmodified-Since on them, and the
 * daemon's other file answers ignore both. Without this, send answers them 412 through its error path,
 * which no route documents and which would become a 500.
 */
export function dropWritePreconditions(req: Request): void {
  delete req.headers['if-match'];
  delete req.headers['if-unmodified-since'];
}
