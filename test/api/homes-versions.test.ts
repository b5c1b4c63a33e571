import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { fileVersionsRoutes } from '../../shared/src/api/storage/file-versions.ts';
import { homesRoutes } from '../../shared/src/api/storage/homes.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';
import { insertUser } from '../helpers/users.ts';

const pathOf = (template: string) => template.replace(/\{(\w+)\}/g, '1');

/** One wrong request per route and the code it must answer. */
const badInput: Record<string, { path?: string; body?: unknown; code: string }> = {
  'homes.delete': { path: '/api/homes/1', code: 'request.query.invalid' },
  'homes.release': { body: { shareId: 'x' }, code: 'request.body.invalid' },
  'homes.move': { body: { pool: '-bad' }, code: 'request.body.invalid' },
  'homes.settings': { body: { defaultQuotaBytes: 1024 }, code: 'request.body.invalid' },
  'homes.setQuota': { body: { quotaBytes: 5 }, code: 'request.body.invalid' },
  'files.versions': { path: '/api/files/1/versions', code: 'request.query.invalid' },
  'files.restoreVersion': { body: { path: 'a.txt' }, code: 'request.body.invalid' },
};

describe('homes and file versions API', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let user: TestClient;
  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    await insertUser(box, 'carla', 'carla-password-1');
    user = await box.signIn('carla', 'carla-password-1');
  });
  after(async () => {
    await box.close();
    removeTempFolders();
  });

  for (const route of [...Object.values(homesRoutes), ...Object.values(fileVersionsRoutes)]) {
    describe(`${route.method} ${route.path}`, () => {
      it('refuses the unauthenticated with 401 auth.session.required', async () => {
        const res = await box.client().request(route.method, pathOf(route.path), { body: route.method === 'GET' ? undefined : {} });
        expect(res.status).to.equal(401);
        expect((await res.json()).code).to.equal('auth.session.required');
      });
      if (route.access === 'admin') {
        it('refuses a signed-in non-administrator with 403 auth.permission.denied', async () => {
          const res = await user.request(route.method, pathOf(route.path), { body: route.method === 'GET' ? undefined : {} });
          expect(res.status).to.equal(403);
          expect((await res.json()).code).to.equal('auth.permission.denied');
        });
      }
      const bad = badInput[route.id];
      if (!('params' in route) && !('query' in route) && !('body' in route)) return;
      it(`refuses bad input with 400 ${bad?.code}`, async () => {
        const res = await admin.request(route.method, bad?.path ?? pathOf(route.path), { body: bad?.body });
        expect(res.status).to.equal(400);
        expect((await res.json()).code).to.equal(bad?.code);
      });
    });
  }

  it('answers an overview without a home pool and refuses an unknown home', async () => {
    const overview = await admin.api.homes.overview();
    expect(overview).to.deep.include({ homePool: null, defaultQuotaBytes: null, homes: [] });
    await expectProblem(admin.api.homes.setQuota({ params: { userId: 1 }, body: { quotaBytes: null } }), 'homes.home.not_found', 404);
    await expectProblem(admin.api.homes.delete({ params: { shareId: 99 }, query: { confirm: 'x' } }), 'homes.home.not_found', 404);
    await expectProblem(admin.api.homes.settings({ body: { defaultQuotaBytes: null, homePool: 'absentpool' } }), 'storage.pool.not_found', 404);
    expect((await admin.api.homes.settings({ body: { defaultQuotaBytes: 2 * 1024 * 1024 } })).defaultQuotaBytes).to.equal(2 * 1024 * 1024);
  });

  it('refuses restore points on a folder share with fs.share.no_dataset and lists no versions for it', async () => {
    const { share, folder } = await makeShare(admin, 'Plain');
    writeFileSync(path.join(folder, 'a.txt'), 'x');
    const res = await admin.request('PUT', `/api/shares/${share.id}/restore-points`, { body: { enabled: true } });
    expect(res.status).to.equal(409);
    expect((await res.json()).code).to.equal('fs.share.no_dataset');
    expect(await admin.api.fileVersions.list({ params: { shareId: share.id }, query: { path: 'a.txt' } })).to.deep.equal({
      path: 'a.txt',
      deleted: false,
      versions: [],
    });
    // Without access the share does not exist for the caller; restoring needs read-write.
    await expectProblem(user.api.fileVersions.list({ params: { shareId: share.id }, query: { path: 'a.txt' } }), 'fs.share.not_found', 404);
    await admin.api.shares.setGrants({
      params: { shareId: share.id },
      body: {
        grants: [
          {
            subjectType: 'user',
            subjectId: (await box.daemon.db.query("SELECT id FROM users WHERE username='carla'", { plain: true }))!.id as number,
            level: 'read',
          },
        ],
      },
    });
    await expectProblem(
      user.api.fileVersions.restore({ params: { shareId: share.id }, body: { path: 'a.txt', version: 'service-manual-20261123T101500Z' } }),
      'fs.share.read_only',
      403,
    );
    await expectProblem(admin.api.fileVersions.list({ params: { shareId: share.id }, query: { path: '../x' } }), 'fs.path.invalid', 400);
  });
});
