import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { runWithContext } from '../core/request-context.ts';

/** An incoming id is kept when it is short and harmless; anything else gets a fresh one. */
const saneId = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestId(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('X-Request-Id');
    const id = incoming && saneId.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    runWithContext({ requestId: id }, next);
  };
}
