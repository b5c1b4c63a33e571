import { api, type Api } from './api/index.ts';
import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteDef, RouteTable } from './api/route.ts';
import type { ProblemDetails } from './errors/index.ts';

/** A failed call: the server's problem details (or one made up for a network failure). */
export class ApiError extends Error {
  constructor(readonly problem: ProblemDetails) {
    super(problem.detail || problem.title);
    this.name = 'ApiError';
  }

  get code(): string {
    return this.problem.code;
  }

  get status(): number {
    return this.problem.status;
  }
}

type Part<K extends string, T> = [T] extends [Record<string, never>] ? { [P in K]?: T } : { [P in K]: T };
type BodyPart<D> = [BodyOf<D>] extends [undefined] ? { body?: undefined } : { body: BodyOf<D> };

export type CallArgs<D> = Part<'params', ParamsOf<D>> & Part<'query', QueryOf<D>> & BodyPart<D> & { headers?: Record<string, string>; signal?: AbortSignal };

// Arguments may be left out exactly when every part of them is optional.
type Caller<D> = Record<never, never> extends CallArgs<D> ? (args?: CallArgs<D>) => Promise<ResponseOf<D>> : (args: CallArgs<D>) => Promise<ResponseOf<D>>;

/** `client.auth.login({ body })`: one typed function per operation of the route tables. */
export type ApiClient = { [A in keyof Api]: { [O in keyof Api[A]]: Caller<Api[A][O]> } };

export interface ClientOptions {
  baseUrl: string;
  /** The platform's fetch (a cookie-keeping one in Node tests). */
  fetch?: typeof fetch;
  /** The session's CSRF token, sent on every state-changing request. */
  csrfToken?: () => string | null;
}

export function buildUrl(route: RouteDef, params: Record<string, unknown> = {}, query: Record<string, unknown> = {}): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, v instanceof Date ? v.toISOString() : String(v));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

export interface RawCall {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Sends one request of a route and answers the raw Response (headers, downloads). */
export async function send(options: ClientOptions, route: RouteDef, args: RawCall = {}): Promise<Response> {
  const doFetch = options.fetch ?? fetch;
  const headers: Record<string, string> = { Accept: 'application/json', ...args.headers };
  let body: BodyInit | undefined;
  if (args.body !== undefined) {
    const raw = args.body instanceof Blob || args.body instanceof ArrayBuffer || args.body instanceof Uint8Array || args.body instanceof ReadableStream;
    body = raw ? (args.body as BodyInit) : JSON.stringify(args.body);
    if (!raw) headers['Content-Type'] = 'application/json';
  }
  if (route.method !== 'GET') {
    const token = options.csrfToken?.();
    if (token) headers['X-CSRF-Token'] = token;
  }
  const init: RequestInit & { duplex?: 'half' } = { method: route.method, headers, body, credentials: 'same-origin', signal: args.signal };
  // Streams as request bodies need half duplex in fetch.
  if (body instanceof ReadableStream) init.duplex = 'half';
  return doFetch(options.baseUrl + buildUrl(route, args.params, args.query), init);
}

/** Throws the answer's problem details, or answers its JSON (undefined for 204). */
export async function readAnswer(response: Response): Promise<unknown> {
  const type = response.headers.get('Content-Type') ?? '';
  if (!response.ok) {
    if (type.includes('json')) throw new ApiError((await response.json()) as ProblemDetails);
    throw new ApiError({
      type: 'about:blank',
      title: response.statusText,
      status: response.status,
      detail: await response.text(),
      code: 'server.internal.error',
      requestId: response.headers.get('X-Request-Id') ?? '',
    });
  }
  if (response.status === 204) return undefined;
  if (type.includes('json')) return response.json();
  return response.blob();
}

export function createApiClient(options: ClientOptions): ApiClient {
  const client: Record<string, Record<string, (args?: RawCall) => Promise<unknown>>> = {};
  for (const [area, table] of Object.entries(api as Record<string, RouteTable>)) {
    client[area] = {};
    for (const [name, route] of Object.entries(table)) {
      client[area][name] = async (args) => readAnswer(await send(options, route, args));
    }
  }
  return client as unknown as ApiClient;
}
