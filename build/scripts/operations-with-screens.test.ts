import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sourceFiles } from '../../test/helpers/source-files.ts';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { api } from '../../shared/src/api/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Operations no web or console code calls, each with why a person needs no screen for it. An
 * operation added without a screen fails the test below until it gets one or an entry here.
 */
const withoutScreen: Record<string, string> = {
  'docs.openapi': 'the API document for app authors and scripts; the API docs page reads it',
  'docs.page': 'the API docs page itself, opened by its address',
  'docs.asset': "the API docs page's own script and style, which the page loads",
  'jobs.list': 'the tasks tray gets the same list from the jobs topic',
  'notifications.list': 'the notification centre gets the same list from the notifications topic',
  'notifications.sendApp': "for apps' backends, not people",
  'logs.appBatch': "for apps' backends, not people",
  'appApi.self': 'app API: called by apps with their token',
  'appApi.notify': 'app API: called by apps with their token',
  'appApi.logs': 'app API: called by apps with their token',
  'appApi.listFiles': 'app API: called by apps with their token',
  'appApi.readFile': 'app API: called by apps with their token',
  'appApi.writeFile': 'app API: called by apps with their token',
  'tls.revocationList': "TLS clients fetch it from the certificates' revocation list address",
  'proxy.authorize': "nginx's auth_request for proxied apps, not a page",
  'proxy.redeem': 'the redirect a proxied app sends the browser through after sign-in',
  'installer.status': "the console's installer wizard calls it by operation name (console/src/node/installer-client.ts)",
  'installer.claim': "the console's installer wizard calls it by operation name",
  'installer.options': "the console's installer wizard calls it by operation name",
  'installer.networkTest': "the console's installer wizard calls it by operation name",
  'installer.startNetworkTest': "the console's installer wizard calls it by operation name",
  'installer.install': "the console's installer wizard calls it by operation name",
  'installer.reboot': "the console's installer wizard calls it by operation name",
  'replicationTasks.list': "issue 33: the Storage Manager's Replication section is not built yet (it comes with the pairing screens)",
  'replicationTasks.create': "issue 33: the Storage Manager's Replication section is not built yet (it comes with the pairing screens)",
  'replicationTasks.get': "issue 33: the Storage Manager's Replication section is not built yet (it comes with the pairing screens)",
  'replicationTasks.update': "issue 33: the Storage Manager's Replication section is not built yet (it comes with the pairing screens)",
  'replicationTasks.delete': "issue 33: the Storage Manager's Replication section is not built yet (it comes with the pairing screens)",
  'replicationTasks.run': "issue 33: the Storage Manager's Replication section is not built yet (it comes with the pairing screens)",
  'replicationTasks.runs': "issue 33: the Storage Manager's Replication section is not built yet (it comes with the pairing screens)",
  'replication.createOffer': "Storage Manager's Replication section comes with the tasks",
  'replication.accept': "the source box's daemon calls it when pairing (areas/replication/pinned-target.ts), not a page",
  'replication.pair': "Storage Manager's Replication section comes with the tasks",
  'replication.pairings': "Storage Manager's Replication section comes with the tasks",
  'replication.unpair': "Storage Manager's Replication section comes with the tasks",
};

const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/**
 * Whether a file names the route's path: whole (`{shareId}` being `${...}` in TypeScript or `{...}` in
 * Svelte markup), or composed, its start up to the first parameter and every later fixed segment in one file.
 */
function namesPath(file: string, routePath: string): boolean {
  const pattern = escape(routePath).replace(/\\?\{[^}]+\\?\}/g, '\\$?\\{[^}]+\\}');
  if (new RegExp(`['"\`]${pattern}['"\`?]`).test(file)) return true;
  const [start, ...rest] = routePath.split(/\{[^}]+\}/);
  if (rest.length === 0 || !new RegExp(`['"\`]${escape(start!)}\\$?\\{`).test(file)) return false;
  return rest.flatMap((part) => part.split('/')).every((segment) => segment === '' || file.includes(segment));
}

/** Called through the typed client (`api.<area>.<op>`), a route table (`<area>Routes.<op>`) or its path in a link. */
function uncalledOperations(files: string[]): string[] {
  const uncalled: string[] = [];
  for (const [area, table] of Object.entries(api)) {
    for (const [op, route] of Object.entries(table)) {
      const { id, path: routePath } = route as { id: string; path: string };
      const byName = new RegExp(`(\\.${area}|\\b${area}Routes)\\.${op}\\b`);
      if (!files.some((file) => byName.test(file) || namesPath(file, routePath))) uncalled.push(id);
    }
  }
  return uncalled;
}

describe('every operation a person would use has a place in the desktop or the console', () => {
  const code = [...sourceFiles(path.join(root, 'web/src'), /\.(ts|svelte)$/), ...sourceFiles(path.join(root, 'console/src'), /\.(ts|svelte)$/)].map((f) =>
    readFileSync(f, 'utf8'),
  );

  it('leaves out only operations listed with a reason', () => {
    const missing = uncalledOperations(code).filter((id) => !(id in withoutScreen));
    expect(missing, 'operations no web or console code calls: give them a screen, or list them in withoutScreen with why').to.deep.equal([]);
  });

  it('lists no operation that has a screen by now, or that does not exist', () => {
    const uncalled = new Set(uncalledOperations(code));
    expect(Object.keys(withoutScreen).filter((id) => !uncalled.has(id))).to.deep.equal([]);
  });

  it('finds an operation by its client call, its route table or its path, and misses one nobody calls', () => {
    const all = uncalledOperations([]);
    expect(all).to.include.members(['shares.setRestorePoints', 'storage.createSharePlan', 'files.download']);
    const called = uncalledOperations([
      'api.shares.setRestorePoints(x); send(desktopRoutes.saveLayout)',
      "href='/api/files/${id}/content'",
      "`/api/store/catalogs/${c}/apps/${a}/${v}/${s ? 'screenshots' : 'icon'}`",
    ]);
    for (const id of ['shares.setRestorePoints', 'desktop.saveLayout', 'files.download', 'store.icon']) expect(called).to.not.include(id);
    expect(called).to.include('storage.createSharePlan');
  });
});
