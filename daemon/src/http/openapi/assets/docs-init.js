// Starts Swagger UI on /api/docs. A served file, not an inline script, because the CSP allows scripts from 'self' only.

/** State-changing requests made with a session need the session's CSRF token; the page reads it from the session. */
async function withCsrfToken(request) {
  if (!request.method || request.method.toUpperCase() === 'GET') return request;
  const session = await fetch('/api/auth/session', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (session.ok) request.headers['X-CSRF-Token'] = (await session.json()).csrfToken;
  return request;
}

/** Swagger UI renders after load and moves the catalog down: scroll to an `#error-<code>` anchor again once it is done. */
function revealAnchor() {
  if (!location.hash) return;
  const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  // onComplete comes before React has drawn the areas above the catalog: scroll once they are there.
  if (target) setTimeout(() => target.scrollIntoView(), 100);
}

window.SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  // Swagger UI's deep links would take over the hash that the error anchors use.
  deepLinking: false,
  // No request to the public validator service: the page works without internet.
  validatorUrl: null,
  // The areas first, each opened on demand: rendering all operations at once stalls on a document this size.
  docExpansion: 'none',
  requestInterceptor: withCsrfToken,
  onComplete: revealAnchor,
});
