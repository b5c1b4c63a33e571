import type Joi from 'joi';
import type { ErrorCode } from '../errors/index.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: anyone (Pub), a signed-in user (Usr), an administrator (Adm),
 * a signed-in user holding a special right of the permission catalog (administrators hold all),
 * or an installed app's window with its host token (`app`: `Authorization: Bearer`, never the session cookie).
 */
export type Access = 'public' | 'user' | 'admin' | 'app' | `right:${string}`;

/** A raw (non-JSON) request or response body, such as an upload or a download. */
export interface RawBody {
  raw: true;
  /** Its media type, or each one it can be (an image served as stored: PNG, JPEG or WebP). */
  contentType: string | readonly string[];
}

/**
 * One operation of the API: the single source of truth that the daemon validates with,
 * the OpenAPI document is generated from and the web client is typed by.
 */
export interface RouteDef<P = unknown, Q = unknown, B = unknown, R = unknown> {
  /** Stable operation id, `<area>.<operation>`. */
  id: string;
  method: HttpMethod;
  /** Express-independent path template with `{name}` parameters. */
  path: string;
  access: Access;
  summary: string;
  description?: string;
  params?: Joi.ObjectSchema<P>;
  query?: Joi.ObjectSchema<Q>;
  body?: Joi.Schema<B> | RawBody;
  /** Status of a successful answer. */
  status: number;
  /** JSON answer schema; absent for 204 and raw answers. */
  response?: Joi.Schema<R> | RawBody;
  /** Error codes this operation can answer beyond the generic ones every route has. */
  errors: readonly ErrorCode[];
  /** Largest accepted body in bytes (JSON default 100 KiB). */
  bodyLimit?: number;
  /** The two sign-in requests carry no CSRF token yet; they check Origin instead. */
  csrfExempt?: boolean;
  /** Code of an invalid JSON body when the spec names one for the route (default `request.body.invalid`). */
  bodyErrorCode?: ErrorCode;
  /** Request headers the operation reads (for example If-Match), documented in OpenAPI. */
  headers?: readonly string[];
}

type Inner<S> = S extends Joi.Schema<infer T> ? T : never;

export type ParamsOf<D> = D extends { params: infer S } ? Inner<S> : Record<string, never>;
export type QueryOf<D> = D extends { query: infer S } ? Inner<S> : Record<string, never>;
export type BodyOf<D> = D extends { body: RawBody } ? Blob | ArrayBuffer | Uint8Array | ReadableStream : D extends { body: infer S } ? Inner<S> : undefined;
export type ResponseOf<D> = D extends { response: RawBody } ? Blob : D extends { response: infer S } ? Inner<S> : void;

/** Declares a route, keeping its literal id and schema types for handlers and the client. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- joi schema types are invariant in their value type: only `any` accepts every route's own types
export function defineRoute<const D extends RouteDef<any, any, any, any>>(def: D): D {
  return def;
}

/** The routes of one area, by operation name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as in defineRoute: a table holds routes of every value type
export type RouteTable = Record<string, RouteDef<any, any, any, any>>;
