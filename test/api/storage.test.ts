import { expect } from 'chai';
import type { RouteDef } from '../../shared/src/api/route.ts';
import { storageRoutes } from '../../shared/src/api/storage/storage.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { insertUser } from '../helpers/users.ts';

const samplePath: Record<string, string> = { key: 'pool.health:tank', pool: 'tank', planId: '00000000-0000-4000-8000-000000000000' };
const pathOf = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(samplePath[name] ?? 'x'));

/** One request per route whose body or query is wrong, and the code it must answer. */
const badInput: Partial<Record<keyof typeof storageRoutes, { path?: string; body?: unknown; code: string }>> = {
  muteAlert: { path: `/api/storage/alerts/${'k'.repeat(301)}/mute`, code: 'request.params.invalid' },
  unmuteAlert: { path: `/api/storage/alerts/${'k'.repeat(301)}/mute`, code: 'request.params.invalid' },
  createPlan: { body: { kind: 'pool.create', pool: 'mirror', layout: 'mirror', disks: ['sda'] }, code: 'request.body.invalid' },
  runPlan: { path: '/api/storage/plans/not-a-uuid/run', code: 'request.params.invalid' },
  startScrub: { path: '/api/storage/pools/-bad/scrub', code: 'request.params.invalid' },
  stopScrub: { path: '/api/storage/pools/-bad/scrub', code: 'request.params.invalid' },
  pauseScrub: { path: '/api/storage/pools/-bad/scrub/pause', code: 'request.params.invalid' },
  setSchedules: { body: { smartSelfTest: { frequency: 'daily' } }, code: 'request.body.invalid' },
  snapshots: { path: '/api/storage/snapshots', code: 'request.query.invalid' },
  createSnapshot: { body: { dataset: '../etc' }, code: 'request.body.invalid' },
  holdSnapshot: { body: { dataset: 'tank/a', snapshot: 'a b' }, code: 'request.body.invalid' },
  releaseSnapshot: { body: { dataset: 'tank/a' }, code: 'request.body.invalid' },
  snapshotSchedules: { path: '/api/storage/snapshots/schedules?dataset=', code: 'request.query.invalid' },
  setSnapshotSchedules: { body: { dataset: 'tank/a', schedules: [{ kind: 'hourly', enabled: true, keep: 0 }] }, code: 'request.body.invalid' },
  createSharePlan: { body: { kind: 'share.delete', shareId: 1 }, code: 'request.body.invalid' },
};

describe('storage API access and input', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let user: TestClient;
  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    await insertUser(box, 'carla', 'carla-password-1');
    user = await box.signIn('carla', 'carla-password-1');
  });
  after(() => box.close());

  for (const [name, route] of Object.entries(storageRoutes)) {
    describe(`${route.method} ${route.path}`, () => {
      it('refuses the unauthenticated with 401 auth.session.required', async () => {
        const res = await box.client().request(route.method, pathOf(route.path), { body: route.method === 'GET' ? undefined : {} });
        expect(res.status).to.equal(401);
        expect((await res.json()).code).to.equal('auth.session.required');
      });

      it('refuses a signed-in non-administrator with 403 auth.permission.denied', async () => {
        const res = await user.request(route.method, pathOf(route.path), { body: route.method === 'GET' ? undefined : {} });
        expect(res.status).to.equal(403);
        expect((await res.json()).code).to.equal('auth.permission.denied');
      });

      const bad = badInput[name as keyof typeof storageRoutes];
      if (bad) {
        it(`refuses bad input with 400 ${bad.code}`, async () => {
          const res = await admin.request(route.method, bad.path ?? pathOf(route.path), { body: bad.body });
          expect(res.status).to.equal(400);
          expect((await res.json()).code).to.equal(bad.code);
        });
      }
    });
  }

  it('has a bad-input test for every route that takes input', () => {
    const routes: Record<string, RouteDef> = storageRoutes;
    const withInput = Object.entries(routes)
      .filter(([, r]) => r.params || r.query || r.body)
      .map(([n]) => n);
    expect(withInput.filter((n) => !(n in badInput))).to.deep.equal([]);
  });

  it('refuses an unknown plan with storage.plan.not_found', async () => {
    const res = await admin.request('POST', pathOf('/api/storage/plans/{planId}/run'));
    expect(res.status).to.equal(404);
    expect((await res.json()).code).to.equal('storage.plan.not_found');
  });

  it('refuses a share.create plan up front in development mode, where its commands would only be logged', async () => {
    // The share is registered on the dataset the commands create; without them the run could never finish.
    const err = await expectProblem(
      admin.api.storage.createSharePlan({ body: { kind: 'share.create', pool: 'tank', name: 'Photos' } }),
      'storage.apply.disabled',
      409,
    );
    expect(err.problem.params).to.deep.equal({ kind: 'share.create' });
  });
});
