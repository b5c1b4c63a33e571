import { expect } from 'chai';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { insertUser } from '../helpers/users.ts';

const laptop = 'laptop-0001';
const phone = 'phone-00001';

describe('desktop: one layout per device', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let alice: TestClient;

  const save = (client: TestClient, deviceId: string | null, layout: unknown, ifMatch?: string, userAgent?: string) => {
    const headers: Record<string, string> = {};
    if (deviceId !== null) headers['X-Device-Id'] = deviceId;
    if (ifMatch !== undefined) headers['If-Match'] = ifMatch;
    if (userAgent !== undefined) headers['User-Agent'] = userAgent;
    return client.request('PUT', '/api/desktop/layout', { body: JSON.stringify(layout), headers });
  };
  const stateOf = (client: TestClient, deviceId: string) => client.api.desktop.get({ headers: { 'X-Device-Id': deviceId } });
  const problem = async (res: Response) => ({ status: res.status, ...((await res.json()) as { code: string; params?: unknown }) });

  before(async () => {
    box = await startTestDaemon();
    await insertUser(box, 'alice', 'alice password 1');
    admin = await box.signIn();
    alice = await box.signIn('alice', 'alice password 1');
  });
  after(() => box.close());

  it('saves the default device’s layout without X-Device-Id, and refuses a malformed one', async () => {
    expect((await save(admin, null, { icons: [{ id: 1, x: 0, y: 0 }] }, '"0"')).status).to.equal(204);
    expect((await stateOf(admin, 'default-device')).layoutVersion).to.equal(1);
    expect(await problem(await save(admin, 'bad/device', { icons: [] }))).to.include({ status: 400, code: 'desktop.device.invalid' });
  });

  it('creates the first layout with If-Match "0" and answers the new version as ETag', async () => {
    const res = await save(admin, laptop, { icons: [{ id: 1, x: 0, y: 0 }] }, '"0"', 'Firefox on the laptop');
    expect(res.status).to.equal(204);
    expect(res.headers.get('etag')).to.equal('"1"');
    const state = await stateOf(admin, laptop);
    expect(state).to.deep.include({ layout: { icons: [{ id: 1, x: 0, y: 0 }] }, layoutVersion: 1 });
    // "0" means "only while there is none": a second creation conflicts.
    expect(await problem(await save(admin, laptop, { icons: [] }, '"0"'))).to.deep.include({
      status: 412,
      code: 'desktop.layout.conflict',
      params: { version: 1 },
    });
  });

  it('checks If-Match: quoted current version saves, stale and wrong ones conflict, malformed ones are refused', async () => {
    const { layoutVersion } = await stateOf(admin, laptop);
    const saved = await save(admin, laptop, { icons: ['quoted'] }, `"${layoutVersion}"`);
    expect(saved.status).to.equal(204);
    expect(saved.headers.get('etag')).to.equal(`"${layoutVersion + 1}"`);
    for (const stale of [`"${layoutVersion}"`, '"12345"']) {
      expect(await problem(await save(admin, laptop, { icons: ['stale'] }, stale))).to.deep.include({
        status: 412,
        code: 'desktop.layout.conflict',
        params: { version: layoutVersion + 1 },
      });
    }
    for (const bad of [String(layoutVersion + 1), 'W/"2"', '*', 'garbage', '"2"x']) {
      expect(await problem(await save(admin, laptop, { icons: ['bad'] }, bad)), bad).to.include({ status: 400, code: 'desktop.if_match.invalid' });
    }
    expect((await stateOf(admin, laptop)).layout).to.deep.equal({ icons: ['quoted'] });
  });

  it('saves unconditionally without If-Match, and takes any JSON', async () => {
    const before = (await stateOf(admin, laptop)).layoutVersion;
    for (const layout of [null, [1, 2, 3], 'just text', { nested: { deep: [true, null] } }]) {
      const res = await save(admin, laptop, layout);
      expect(res.status).to.equal(204);
      expect((await stateOf(admin, laptop)).layout).to.deep.equal(layout);
    }
    expect((await stateOf(admin, laptop)).layoutVersion).to.equal(before + 4);
  });

  it('refuses a layout over 256 KiB', async () => {
    const res = await save(admin, laptop, { blob: 'x'.repeat(300 * 1024) });
    expect(await problem(res)).to.include({ status: 413, code: 'request.body.too_large' });
  });

  it('keeps separate layouts for two devices and for two users on one device', async () => {
    await save(admin, laptop, { on: 'laptop' });
    await save(admin, phone, { on: 'phone' }, '"0"', 'Phone browser');
    await save(alice, laptop, { on: "alice's laptop" });
    expect((await stateOf(admin, laptop)).layout).to.deep.equal({ on: 'laptop' });
    expect(await stateOf(admin, phone)).to.deep.include({ layout: { on: 'phone' }, layoutVersion: 1 });
    expect((await stateOf(alice, laptop)).layout).to.deep.equal({ on: "alice's laptop" });
    expect(await stateOf(alice, phone)).to.deep.include({ layout: null, layoutVersion: 0 });
  });

  it("lists the caller's devices, most recently saved first", async () => {
    await save(admin, phone, { on: 'phone', again: true }, undefined, 'Phone browser');
    const devices = await admin.api.desktop.devices();
    expect(devices.map((d) => d.deviceId)).to.deep.equal([phone, laptop, 'default-device']);
    expect(devices[0]).to.deep.include({ layout: { on: 'phone', again: true }, version: 2, userAgent: 'Phone browser' });
    expect((await alice.api.desktop.devices()).map((d) => d.deviceId)).to.deep.equal([laptop]);
  });

  it('copies a layout to a new device and over an existing one', async () => {
    const tablet = 'tablet-0001';
    const res = await admin.request('POST', '/api/desktop/layout/copy', { body: { fromDeviceId: laptop, toDeviceId: tablet } });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ deviceId: tablet, version: 1 });
    expect(res.headers.get('etag')).to.equal('"1"');
    expect(await stateOf(admin, tablet)).to.deep.include({ layout: { on: 'laptop' }, layoutVersion: 1 });

    const phoneVersion = (await stateOf(admin, phone)).layoutVersion;
    const copied = await admin.api.desktop.copyLayout({ body: { fromDeviceId: laptop, toDeviceId: phone } });
    expect(copied).to.deep.equal({ deviceId: phone, version: phoneVersion + 1 });
    expect((await stateOf(admin, phone)).layout).to.deep.equal({ on: 'laptop' });
    // The source stays as it was.
    expect((await stateOf(admin, laptop)).layout).to.deep.equal({ on: 'laptop' });
  });

  it("answers 404 desktop.layout.not_found for a source device without a layout, also for another user's device", async () => {
    const err = await expectProblem(
      admin.api.desktop.copyLayout({ body: { fromDeviceId: 'never-saved-1', toDeviceId: laptop } }),
      'desktop.layout.not_found',
      404,
    );
    expect(err.problem.params).to.deep.equal({ deviceId: 'never-saved-1' });
    await expectProblem(alice.api.desktop.copyLayout({ body: { fromDeviceId: phone, toDeviceId: 'alice-tablet' } }), 'desktop.layout.not_found', 404);
  });

  it('refuses malformed copy requests', async () => {
    for (const body of [{}, { fromDeviceId: laptop }, { fromDeviceId: 'x', toDeviceId: phone }, { fromDeviceId: laptop, toDeviceId: phone, extra: 1 }]) {
      await expectProblem(admin.api.desktop.copyLayout({ body: body as never }), 'request.body.invalid', 400);
    }
  });

  it('lets exactly one of two racing conditional saves win', async () => {
    const { layoutVersion } = await stateOf(admin, laptop);
    const answers = await Promise.all([save(admin, laptop, { racer: 'a' }, `"${layoutVersion}"`), save(admin, laptop, { racer: 'b' }, `"${layoutVersion}"`)]);
    expect(answers.map((r) => r.status).sort()).to.deep.equal([204, 412]);
    const winner = answers.findIndex((r) => r.status === 204);
    expect((await stateOf(admin, laptop)).layout).to.deep.equal({ racer: winner === 0 ? 'a' : 'b' });
  });

  it('refuses a layout nested 20,000 levels deep with 400 and keeps the saved one (it answered 500)', async () => {
    const device = 'deep-000001';
    expect((await save(alice, device, { icons: [] }, '"0"')).status).to.equal(204);
    const deep = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
    const res = await alice.request('PUT', '/api/desktop/layout', { body: deep, headers: { 'X-Device-Id': device } });
    const answer = await problem(res);
    expect(answer).to.include({ status: 400, code: 'request.body.invalid' });
    expect((await stateOf(alice, device)).layout).to.deep.equal({ icons: [] });
  });
});
