import { expect } from 'chai';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { insertUser } from '../helpers/users.ts';

describe('system region: the box language and region', () => {
  let box: TestDaemon;
  let admin: TestClient;

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
  });
  after(() => box.close());

  it('starts as English without a region, in GET /api/system/region and GET /api/setup', async () => {
    expect(await admin.api.system.region()).to.deep.equal({ language: 'en', region: null });
    expect(await box.client().api.system.setup()).to.include({ language: 'en', region: null });
  });

  it('saves language and region; the sign-in page and new users without a language follow', async () => {
    expect(await admin.api.system.setRegion({ body: { language: 'de', region: 'AT' } })).to.deep.equal({ language: 'de', region: 'AT' });
    expect(await admin.api.system.region()).to.deep.equal({ language: 'de', region: 'AT' });
    expect(await box.client().api.system.setup()).to.include({ language: 'de', region: 'AT' });

    const created = await admin.api.users.create({ body: { username: 'greta', password: 'greta password 1' } });
    expect(created.language).to.equal('de');
    const chosen = await admin.api.users.create({ body: { username: 'henry', password: 'henry password 1', language: 'en' } });
    expect(chosen.language).to.equal('en');

    expect(await admin.api.system.setRegion({ body: { language: 'en', region: null } })).to.deep.equal({ language: 'en', region: null });
    expect(await box.client().api.system.setup()).to.include({ language: 'en', region: null });
  });

  it('keeps the settings over a restart', async () => {
    const own = await startTestDaemon();
    await (await own.signIn()).api.system.setRegion({ body: { language: 'de', region: 'CH' } });
    await own.close({ keepData: true });
    const again = await startTestDaemon({ dataDir: own.dataDir });
    try {
      expect(await again.client().api.system.setup()).to.include({ language: 'de', region: 'CH' });
    } finally {
      await again.close();
    }
  });

  it('refuses bad values, the unauthenticated and non-administrators', async () => {
    for (const body of [{ language: 'fr', region: null }, { language: 'de', region: 'de' }, { language: 'de', region: 'AUT' }, { language: 'de' }, {}]) {
      const err = await expectProblem(admin.api.system.setRegion({ body: body as never }), 'request.body.invalid', 400);
      expect(err.problem.params?.errors, JSON.stringify(body)).to.be.an('array').that.is.not.empty;
    }
    await expectProblem(box.client().api.system.region(), 'auth.session.required', 401);
    await expectProblem(box.client().api.system.setRegion({ body: { language: 'de', region: null } }), 'auth.session.required', 401);
    await insertUser(box, 'ivy', 'ivy password 1');
    const ivy = await box.signIn('ivy', 'ivy password 1');
    await expectProblem(ivy.api.system.region(), 'auth.permission.denied', 403);
    await expectProblem(ivy.api.system.setRegion({ body: { language: 'de', region: null } }), 'auth.permission.denied', 403);
    expect(await admin.api.system.region()).to.deep.equal({ language: 'en', region: null });
  });
});
