import { defineErrors } from './catalog-entry.ts';

/** The reverse proxy: hosts, redirects, streams and sign-in-protected hosts (spec 4.14, 7). */
export const proxyErrors = defineErrors({
  'proxy.host.not_found': { status: 404, title: 'There is no such proxy host', params: ['id'] },
  'proxy.redirect.not_found': { status: 404, title: 'There is no such redirect host', params: ['id'] },
  'proxy.stream.not_found': { status: 404, title: 'There is no such stream', params: ['id'] },
  'proxy.domain.taken': { status: 409, title: 'Another proxy or redirect host answers for this name', params: ['domain'] },
  'proxy.port.taken': { status: 409, title: 'The port is taken by another stream or by the proxy itself', params: ['port'] },
  'proxy.user.password_missing': { status: 422, title: 'A new Basic Auth user needs a password', params: ['username'] },
  'proxy.certificate.missing': { status: 422, title: 'An uploaded certificate was chosen but none was sent or kept' },
  'proxy.config.refused': { status: 422, title: 'nginx refused the configuration; the running one stays', params: ['message'] },
  'proxy.ticket.invalid': { status: 401, title: 'The ticket is unknown, used or expired: sign in again' },
  // 401, not 429: nginx's auth_request passes on only 401 and 403; nginx answers the visitor 429 with Retry-After.
  'proxy.basic.throttled': { status: 401, title: 'Too many wrong Basic Auth passwords from this address; try again later', params: ['retryAfter'] },
  'proxy.access.denied': { status: 403, title: 'This proxy host does not let the user in' },
  'proxy.host.unknown': { status: 404, title: 'No sign-in-protected proxy host answers for this address', params: ['url'] },
});
