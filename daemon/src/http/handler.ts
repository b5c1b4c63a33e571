import type { Request, Response } from 'express';
import type { Session, SessionData } from 'express-session';
import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteTable } from '../../../shared/src/api/route.ts';
import type { Principal } from '../core/principal.ts';

/** What an app's token says of the window calling the API for apps (access `app`). */
export interface AppTokenClaims {
  appId: string;
  instanceId: string;
}

/** What a route handler gets: validated parts, the caller, and req/res for headers and streams. */
export interface HandlerContext<D> {
  params: ParamsOf<D>;
  query: QueryOf<D>;
  /** The validated JSON body; for a raw body, the request itself is the stream. */
  body: BodyOf<D> extends Blob | ArrayBuffer | Uint8Array | ReadableStream ? Request : BodyOf<D>;
  user: D extends { access: 'public' } ? Principal | null : Principal;
  session: Session & Partial<SessionData>;
  req: Request;
  res: Response;
  /** For access `app`: the app and window the token was issued for; null on every other route. */
  app: AppTokenClaims | null;
}

/**
 * A handler returns the answer's JSON value (sent with the route's status), or nothing
 * for 204 and for answers it wrote itself (downloads, streams).
 */
export type Handler<D> = (ctx: HandlerContext<D>) => Promise<ResponseOf<D> | void> | ResponseOf<D> | void;

export type AreaHandlers<T extends RouteTable> = { [K in keyof T]: Handler<T[K]> };
