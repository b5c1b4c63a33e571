import { expect } from 'chai';
import type { Express } from 'express';
import { api } from '../../shared/src/api/index.ts';
import type { RouteDef } from '../../shared/src/api/route.ts';
import { routePrefix } from '../../daemon/src/http/area-routes.ts';
import { expressPath } from '../../daemon/src/http/register-routes.ts';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';

/**
 * The order the route tables were registered in as one flat list, before each area's routes went
 * under routers per prefix (issue 32): where two patterns match the same request, the first won.
 */
const flatOrder: (keyof typeof api)[] = [
  'installer',
  'auth',
  'users',
  'groups',
  'permissions',
  'system',
  'firstRun',
  'tls',
  'systemTime',
  'systemOverview',
  'systemNetwork',
  'proxy',
  'shares',
  'files',
  'storage',
  'replication',
  'homes',
  'fileVersions',
  'replicationTasks',
  'thumbnails',
  'fileOperations',
  'trash',
  'jobs',
  'logs',
  'desktop',
  'notifications',
  'backup',
  'updates',
  'apps',
  'appApi',
  'store',
  'docs',
];

interface Operation {
  id: string;
  method: string;
  path: string;
}

const operations: Operation[] = flatOrder.flatMap((table) =>
  Object.values(api[table] as Record<string, RouteDef>).map((route) => ({ id: route.id, method: route.method, path: route.path })),
);

const segments = (path: string) => path.split('/').slice(1);
const isParam = (segment: string) => /^\{\w+\}$/.test(segment);

/** Two patterns of one method that a request can match both: as long, and each segment equal or a parameter on one side. */
function overlap(a: Operation, b: Operation): boolean {
  const [sa, sb] = [segments(a.path), segments(b.path)];
  return a.method === b.method && sa.length === sb.length && sa.every((s, i) => s === sb[i] || isParam(s) || isParam(sb[i]!));
}

/** A request path both patterns match: a literal where either has one, a value where both take a parameter. */
function requestPath(a: Operation, b: Operation): string {
  const sb = segments(b.path);
  return (
    '/' +
    segments(a.path)
      .map((s, i) => (isParam(s) ? (isParam(sb[i]!) ? '7' : sb[i]) : s))
      .join('/')
  );
}

/** Whether a pattern matches a request path. */
function matches(op: Operation, path: string): boolean {
  const [so, sp] = [segments(op.path), segments(path)];
  return so.length === sp.length && so.every((s, i) => isParam(s) || s === sp[i]);
}

interface Layer {
  route?: { path: string; _handlesMethod(method: string): boolean };
  handle: { stack?: Layer[] };
  /** The part of `path` the layer matched (router/lib/layer.js), or false. */
  match(path: string): { path: string } | false;
}

/** Follows Express's own matching through the app's routers: the route that answers, and the prefix of the router it sits in. */
function served(stack: Layer[], method: string, path: string, mountedAt = ''): { pattern: string; mountedAt: string } | null {
  for (const layer of stack) {
    const matched = layer.match(path);
    if (!matched) continue;
    if (layer.route) {
      if (layer.route._handlesMethod(method)) return { pattern: (mountedAt + layer.route.path).replace(/(.)\/$/, '$1'), mountedAt };
      continue;
    }
    if (!layer.handle.stack) continue;
    const found = served(layer.handle.stack, method, path.slice(matched.path.length) || '/', mountedAt + matched.path);
    if (found) return found;
  }
  return null;
}

describe('routing per area: routers per prefix keep the flat list order', () => {
  let box: TestDaemon;
  let stack: Layer[];
  const operationAt = (method: string, pattern: string) => operations.find((op) => op.method === method && expressPath(op.path) === pattern)?.id;

  before(async () => {
    box = await startTestDaemon();
    stack = (box.daemon.app as Express & { router: { stack: Layer[] } }).router.stack;
  });
  after(async () => box?.close());

  it('names every route table in the old order', () => {
    expect([...flatOrder].sort()).to.deep.equal(Object.keys(api).sort());
  });

  it('serves every operation from the router of its own prefix', () => {
    for (const op of operations) {
      const found = served(stack, op.method, requestPath(op, op));
      expect(found, `${op.method} ${op.path}`).to.not.equal(null);
      expect(operationAt(op.method, found!.pattern), `${op.method} ${op.path}`).to.equal(op.id);
      expect(found!.mountedAt, `${op.method} ${op.path}`).to.equal(routePrefix(op.path) ?? '');
    }
  });

  it('where two patterns overlap, the operation first in the flat list still wins', () => {
    const pairs = operations.flatMap((a, i) => operations.slice(i + 1).flatMap((b) => (overlap(a, b) ? [[a, b] as const] : [])));
    // The tables overlap in places (a parameter beside a literal, e.g. under /api/files/{shareId}): the check has work to do.
    expect(pairs.length).to.be.greaterThan(0);
    for (const [a, b] of pairs) {
      for (const path of [requestPath(a, b), requestPath(b, a)]) {
        const before = operations.find((op) => op.method === a.method && matches(op, path));
        const now = served(stack, a.method, path);
        expect(now && operationAt(a.method, now.pattern), `${a.method} ${path} (${a.id} / ${b.id})`).to.equal(before?.id);
      }
    }
  });
});
