import { bodyCases, pathCases, queryCases, type HostileRequest } from './hostile-values.ts';
import { ContractMismatch, contractChecker, type ContractChecker } from '../../helpers/openapi-check.ts';
import { fillPath, operationsOf, resolver, type Operation } from './openapi-walk.ts';

/** A signed-in (or anonymous) caller: its cookie and CSRF token. */
export interface Caller {
  name: string;
  cookie: string | null;
  csrf: string | null;
}

export const anonymous: Caller = { name: 'anonymous', cookie: null, csrf: null };

export async function signIn(base: string, username: string, password: string): Promise<Caller> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${username} answered ${res.status}`);
  const { user } = (await res.json()) as { user: { csrfToken: string } };
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { name: username, cookie, csrf: user.csrfToken };
}

export async function send(
  base: string,
  caller: Caller,
  method: string,
  path: string,
  init: { body?: string; contentType?: string; csrf?: boolean } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (caller.cookie) headers.Cookie = caller.cookie;
  if (caller.csrf && init.csrf !== false && method !== 'GET') headers['X-CSRF-Token'] = caller.csrf;
  if (init.body !== undefined) headers['Content-Type'] = init.contentType ?? 'application/json';
  // An answer that never comes is a finding, not a test that hangs. The bound leaves room for the
  // slowest honest answer: a new TLS authority generates RSA keys (seconds on a loaded machine).
  return fetch(base + path, { method, headers, body: init.body, signal: AbortSignal.timeout(30_000) });
}

/** Codes any route may answer for a request that does not reach it (an encoded slash makes another path). */
const outsideRoute = new Set(['request.route.not_found', 'request.method.not_allowed']);

/** What is wrong with one answer, or null: never a 5xx but a documented missing tool, always problem+json with a documented code. */
export async function judge(op: Operation, res: Response): Promise<string | null> {
  const text = await res.text();
  if (res.status < 400) return null;
  if (!(res.headers.get('content-type') ?? '').startsWith('application/problem+json')) return `${res.status} without problem+json`;
  const code = (JSON.parse(text) as { code?: string }).code ?? '';
  if (res.status >= 500 && !(res.status === 503 && code === 'host.tool.missing')) return `${res.status} ${code}`;
  if (!op.codes.includes(code) && !outsideRoute.has(code)) return `undocumented ${res.status} ${code}`;
  return null;
}

/**
 * Operations that would end the sweep's own session or change its password if they acted. None can:
 * hostile requests go only to operations with parameters, a query or a body, every id or name in a
 * path is one that does not exist, and the access sweep's requests are refused before they act.
 */
export const ownSessionOperations = ['auth.logout', 'auth.changePassword', 'auth.totpDisable', 'users.remove', 'users.update', 'users.resetPassword'];

/** Ids and names that exist nowhere: a request the schema lets through meets a 404, never a real object. */
export const absent = (name: string) => (/id$/i.test(name) ? '987654' : name === 'app' ? 'org.example.absent' : 'absent-name');

export async function loadOperations(base: string): Promise<{ ops: Operation[]; resolve: ReturnType<typeof resolver> }> {
  const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as Parameters<typeof operationsOf>[0];
  return { ops: operationsOf(doc), resolve: resolver(doc) };
}

/** Every hostile request of one operation. */
export function hostileRequests(op: Operation, resolve: ReturnType<typeof resolver>): HostileRequest[] {
  const path = fillPath(op, absent);
  return [...pathCases(op, absent), ...queryCases(op, path), ...bodyCases(op, path, resolve)];
}

const checkers = new Map<string, Promise<ContractChecker>>();

/** How an answer breaks the daemon's OpenAPI document, or null; an answer from outside the route (see judge) has nothing to match. */
export async function contractFinding(base: string, method: string, url: string, res: Response): Promise<string | null> {
  const type = res.headers.get('content-type') ?? '';
  const code = type.startsWith('application/problem+json') ? ((await res.clone().json()) as { code?: string }).code : undefined;
  if (code && outsideRoute.has(code)) return null;
  let checker = checkers.get(base);
  if (!checker) checkers.set(base, (checker = contractChecker(base)));
  try {
    await (await checker).checkResponse(method, new URL(base + url), res);
    return null;
  } catch (err) {
    if (err instanceof ContractMismatch) return err.message;
    throw err;
  }
}

/** The codes of a request that its route's schemas refused. */
const schemaRefusals = new Set(['request.body.invalid', 'request.query.invalid', 'request.params.invalid', 'request.headers.invalid']);

/**
 * A request the document validates but the daemon refuses with a schema refusal (400): the document
 * is looser than the daemon there, and a client built on it would send what is refused. Null otherwise.
 */
export async function looserFinding(
  base: string,
  method: string,
  url: string,
  sent: { body?: string; contentType?: string },
  res: Response,
): Promise<string | null> {
  if (res.status !== 400 || !(res.headers.get('content-type') ?? '').startsWith('application/problem+json')) return null;
  const problem = (await res.clone().json()) as { code?: string; params?: { errors?: { path: string; message: string }[] } };
  if (!schemaRefusals.has(problem.code ?? '')) return null;
  // JSON Schema has no keyword for depth: the document states the daemon's limit in words (RequestText).
  const errors = problem.params?.errors ?? [];
  if (errors.length > 0 && errors.every((e) => /^must not nest deeper than \d+ levels$/.test(e.message))) return null;
  const headers = new Headers(sent.body === undefined ? {} : { 'Content-Type': sent.contentType ?? 'application/json' });
  let checker = checkers.get(base);
  if (!checker) checkers.set(base, (checker = contractChecker(base)));
  const mismatch = (await checker).requestMismatch({ method, url: new URL(base + url), headers, body: sent.body });
  if (mismatch !== null) return null;
  const why = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
  return `the document accepts this request, the daemon refused it with ${problem.code} (${why})`;
}

/** Sends them as `caller`; answers the findings, `<operation> <what> as <caller>: <problem>`. */
export async function sweepOperation(base: string, caller: Caller, op: Operation, requests: HostileRequest[]): Promise<string[]> {
  const findings: string[] = [];
  for (const r of requests) {
    const url = r.query ? `${r.path}?${r.query}` : r.path;
    try {
      const res = await send(base, caller, op.method, url, { body: r.body, contentType: r.contentType });
      const wrong =
        (await contractFinding(base, op.method, url, res)) ??
        (await looserFinding(base, op.method, url, { body: r.body, contentType: r.contentType }, res)) ??
        (await judge(op, res));
      if (wrong) findings.push(`${op.id} ${r.what} as ${caller.name}: ${wrong}`);
    } catch (err) {
      findings.push(`${op.id} ${r.what} as ${caller.name}: the connection dropped (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  return findings;
}

/** What a refused request must not change: users, groups, shares and settings. */
export async function observable(base: string, admin: Caller): Promise<string> {
  const parts: unknown[] = [];
  for (const path of ['/api/users', '/api/groups', '/api/shares', '/api/system/region']) parts.push(await (await send(base, admin, 'GET', path)).json());
  parts.push(((await (await send(base, admin, 'GET', '/api/logs/settings')).json()) as { settings: unknown }).settings);
  return JSON.stringify(parts);
}
