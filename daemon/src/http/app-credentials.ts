import type { Request } from 'express';
import { appInstanceHeader, appInstanceIdPattern } from '../../../shared/src/api/apps/apps.ts';

/** What a window's page presents on each call: its bearer token and the window it calls as. */
export interface AppCredentials {
  token: string;
  instanceId: string;
}

/**
 * Reads an app's credentials from a request (the API for apps and the backend path); null when
 * either is missing or malformed, which the caller answers as an invalid token. Both are needed:
 * the token alone does not say which window is calling, and its window must be the caller's.
 */
export function appCredentialsOf(req: Request): AppCredentials | null {
  const token = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(req.get('Authorization') ?? '')?.[1];
  const instanceId = req.get(appInstanceHeader) ?? '';
  return token && appInstanceIdPattern.test(instanceId) ? { token, instanceId } : null;
}
