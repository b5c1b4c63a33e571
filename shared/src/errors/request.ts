import { defineErrors } from './catalog-entry.ts';

/** Codes of the HTTP layer itself, pinned by the client contract. */
export const requestErrors = defineErrors({
  'request.body.invalid': { status: 400, title: 'The request body is invalid', params: ['errors'] },
  'request.query.invalid': { status: 400, title: 'The query is invalid', params: ['errors'] },
  'request.params.invalid': { status: 400, title: 'The path is invalid', params: ['errors'] },
  'request.headers.invalid': { status: 400, title: 'A request header is invalid', params: ['errors'] },
  'request.json.malformed': { status: 400, title: 'The request body is not valid JSON' },
  'request.body.too_large': { status: 413, title: 'The request body is too large', params: ['limit'] },
  'request.media_type.unsupported': { status: 415, title: 'The request body has an unsupported media type' },
  'request.route.not_found': { status: 404, title: 'There is no such endpoint' },
  'request.method.not_allowed': { status: 405, title: 'The method is not allowed here' },
  'request.rate.limited': { status: 429, title: 'Too many requests', params: ['retryAfter'] },
  'server.internal.error': { status: 500, title: 'Something went wrong on the box' },
  'server.unavailable': { status: 503, title: 'The box is starting or stopping' },
});
