import express, { type RequestHandler, type Router } from 'express';
import path from 'node:path';
import { appIdPattern } from '../../../../shared/src/api/apps/app-manifest.ts';
import { appInstanceHeader } from '../../../../shared/src/api/apps/apps.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { controlCharacterErrors } from '../../core/validate.ts';
import type { AppVolumes } from '../../host/app-volumes/app-volumes.ts';
import { volumeLayout } from './apps.jobs.ts';
import type { AppModels } from './app.model.ts';

/** Where installed apps' frontends are served: `/frontends/<appId>/index.html` and the files beside it. */
export const frontendsPath = '/frontends';

/**
 * What an app's page may do: load and call only the box (its files and the API for apps), run
 * scripts, and nothing more. `sandbox` without allow-same-origin gives the page an opaque origin
 * even when opened on its own, so it can never read the desktop's cookies, storage or DOM.
 */
export const frontendPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  'sandbox allow-scripts allow-forms allow-downloads',
].join('; ');

/** One segment of the request's path, decoded; a malformed escape or a control character (NUL) is a bad request, not a failure of the box. */
function decodeSegment(raw: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw new ProblemError('request.params.invalid', { errors: [{ path: 'path', message: 'must be percent-encoded UTF-8' }] });
  }
  const controls = controlCharacterErrors({ path: decoded });
  if (controls.length > 0) throw new ProblemError('request.params.invalid', { errors: controls });
  return decoded;
}

const noFile = (detail: string) => new ProblemError('request.route.not_found', undefined, { detail });

/**
 * Serves the frontends of enabled apps. No session is asked for: the sandboxed page's own
 * requests carry no cookies, and a frontend holds no secret; what it may do with the box is
 * decided by the token the desktop hands its window. Everything below the prefix answers here,
 * so `/frontends/` itself is a 404 (never the desktop page, nor a list of the apps).
 */
export function appFrontends(deps: { models: AppModels; volumes: AppVolumes }): Router {
  const router = express.Router();
  const serve: RequestHandler = async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // The raw path, decoded segment by segment here: an escaped slash stays inside its segment and is refused below.
    const [appId = '', ...restSegments] = req.path.split('/').slice(1).map(decodeSegment);
    if (appId === '') throw noFile(`Frontends are served per app: ${frontendsPath}/<appId>/`);
    if (!appIdPattern.test(appId)) throw new ProblemError('app.app.not_found', { appId });
    const rest = restSegments.join('/');
    if (restSegments.some((segment) => segment === '.' || segment === '..' || /[/\\]/.test(segment))) throw noFile(`No file ${rest} in ${appId}`);
    const row = await deps.models.apps.findByPk(appId);
    const account = row?.state === 'enabled' ? await deps.models.accounts.findByPk(appId) : null;
    const volume = account?.dataset ? await deps.volumes.find(account.dataset) : null;
    if (!volume) throw new ProblemError('app.app.not_found', { appId });
    res.setHeader('Content-Security-Policy', frontendPolicy);
    // The sandboxed page has an opaque origin: its scripts and styles come from "another" origin.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Cache-Control', 'no-cache');
    // Unpacked from a checked package into a folder only the daemon writes: paths stay inside the root (send refuses `..` too).
    res.sendFile(rest === '' ? 'index.html' : rest, { root: path.join(volume.path, volumeLayout.package, 'frontend'), dotfiles: 'deny' }, (err?: Error) => {
      if (!err) return;
      // A folder, a missing file or one send refuses: all "no such file" to the page.
      const status = (err as { status?: number }).status;
      next(status !== undefined && status >= 400 && status < 500 ? noFile(`No file ${rest} in ${appId}`) : err);
    });
  };
  router.use(serve);
  return router;
}

/** The API for apps is called from sandboxed pages (origin `null`) with a bearer token: CORS without credentials. */
export const appApiCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Headers', `Authorization, Content-Type, Range, If-Range, If-None-Match, If-Modified-Since, ${appInstanceHeader}`);
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT');
  res.setHeader('Access-Control-Max-Age', '600');
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  next();
};
