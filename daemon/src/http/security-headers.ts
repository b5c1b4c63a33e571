import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The headers of every API answer (JSON, problem details, streams), after OWASP's REST
 * recommendations: never cached unless the route says so (answers carry one person's data), never
 * framed, no content sniffing, readable by this origin only, and a policy that runs nothing
 * should an answer be opened as a page. Routes that stream files set their own stricter CSP
 * (sandbox) and caching. The many document headers of helmet mean nothing to a JSON answer
 * and would cost every API request their bytes.
 */
function apiHeaders(secureCookies: boolean): [string, string][] {
  const headers: [string, string][] = [
    ['Cache-Control', 'no-store'],
    ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Referrer-Policy', 'no-referrer'],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
  ];
  if (secureCookies) headers.push(['Strict-Transport-Security', 'max-age=31536000; includeSubDomains']);
  return headers;
}

/** Pages and their assets (the web desktop, the API docs): helmet's full set, with a policy that loads only from the box. */
function documentHeaders(secureCookies: boolean): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Svelte transitions set inline styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: secureCookies ? [] : null,
      },
    },
    strictTransportSecurity: secureCookies,
  });
}

/** Whether a path is answered by the API rather than as a page (the API docs are a page). */
export function isApiPath(path: string): boolean {
  return (path === '/api' || path.startsWith('/api/')) && !(path === '/api/docs' || path.startsWith('/api/docs/'));
}

/** Security headers for every answer: the API's lean set, or helmet's for pages. */
export function securityHeaders(secureCookies: boolean): RequestHandler {
  const api = apiHeaders(secureCookies);
  const documents = documentHeaders(secureCookies);
  return (req, res, next) => {
    if (!isApiPath(req.path)) {
      documents(req, res, next);
      return;
    }
    for (const [name, value] of api) res.setHeader(name, value);
    next();
  };
}
