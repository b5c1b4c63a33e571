import type { RouteDef } from '../../../shared/src/api/route.ts';
import { ApiError, buildUrl } from '../../../shared/src/client.ts';
import type { ProblemDetails } from '../../../shared/src/errors/index.ts';
import { session } from './session.svelte.ts';

export interface UploadOptions {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  /** Bytes sent so far of `total`, as the browser reports them. */
  onprogress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

function networkProblem(status: number, detail: string): ProblemDetails {
  return { type: 'about:blank', title: detail, status, detail, code: 'server.internal.error', requestId: '' };
}

/**
 * Sends a file as the raw body of a route with XMLHttpRequest, whose upload events give the
 * progress fetch cannot; answers the JSON answer (undefined for 204) or throws ApiError like the
 * typed client, so describeError words it.
 */
export function uploadWithProgress(route: RouteDef, body: Blob, options: UploadOptions = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(route.method, buildUrl(route, options.params, options.query));
    xhr.setRequestHeader('Content-Type', body.type || 'application/octet-stream');
    xhr.setRequestHeader('Accept', 'application/json');
    const token = session.user?.csrfToken;
    if (token) xhr.setRequestHeader('X-CSRF-Token', token);
    xhr.upload.onprogress = (e) => options.onprogress?.(e.loaded, e.lengthComputable ? e.total : body.size);
    xhr.onload = () => {
      let answer: unknown = undefined;
      try {
        answer = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        // Not JSON (a proxy's error page): reported by status below.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(answer);
      else if (answer && typeof answer === 'object' && 'code' in answer) reject(new ApiError(answer as ProblemDetails));
      else reject(new ApiError(networkProblem(xhr.status, xhr.statusText)));
    };
    // A TypeError, as fetch throws when the box cannot be reached: describeError words it the same.
    xhr.onerror = () => reject(new TypeError('network error'));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}
