import { ApiError, createApiClient, type ClientOptions } from '../../../shared/src/client.ts';
import type { ProblemDetails } from '../../../shared/src/errors/index.ts';
import { session } from './session.svelte.ts';

const sessionLostListeners = new Set<() => void>();

/** Runs when the box says the session is gone (expired, signed out elsewhere, deactivated). */
export function onSessionLost(listener: () => void): () => void {
  sessionLostListeners.add(listener);
  return () => sessionLostListeners.delete(listener);
}

async function sessionAwareFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.status === 401 && session.user) {
    const problem = (await response
      .clone()
      .json()
      .catch(() => null)) as ProblemDetails | null;
    // Only a lost session returns to sign-in; a wrong password in a dialog does not.
    if (problem?.code === 'auth.session.required') {
      session.signedOut('error.auth.session.required');
      for (const listener of sessionLostListeners) listener();
    }
  }
  return response;
}

const options: ClientOptions = {
  baseUrl: '',
  fetch: sessionAwareFetch,
  csrfToken: () => session.user?.csrfToken ?? null,
};

/** The typed client of every operation, with this tab's session and CSRF token. */
export const api = createApiClient(options);
/** The same options, for calls that read response headers such as ETag (`send` of shared/src/client.ts). */
export { options as apiOptions };

export function isProblem(err: unknown, code: string): boolean {
  return err instanceof ApiError && err.code === code;
}
