import { readFileSync, readlinkSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { setupCodeFile } from '../../daemon/src/areas/system/first-run.ts';
import { expectProblem, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { makeTimeRoot } from '../helpers/time-root.ts';

describe('first-run setup sets the time zone', () => {
  let box: TestDaemon;
  let root: string;

  before(async () => {
    root = makeTimeRoot();
    box = await startTestDaemon({}, { firstRunSetup: true, system: { root } });
  });
  after(async () => {
    await box.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses an unknown zone before making the administrator, then sets the chosen zone with the rest', async () => {
    const code = readFileSync(path.join(box.dataDir, setupCodeFile), 'utf8').trim();
    const anon = box.client();
    // The page offers the zones the box knows, the Time section's list, before anyone can sign in.
    const { zones } = await anon.api.firstRun.zones();
    expect(zones).to.include.members(['UTC', 'Europe/Vienna']);
    const body = {
      code,
      username: 'owner',
      password: 'a long owner password 1',
      boxName: 'Hall',
      language: 'en' as const,
      region: null,
      timeZone: 'Mars/Olympus_Mons',
    };
    await expectProblem(anon.api.firstRun.complete({ body }), 'system.zone.unknown', 400);
    await expectProblem(anon.api.firstRun.complete({ body: { ...body, timeZone: '../etc' } }), 'request.body.invalid', 400);
    // The code stays valid and no user was made: the second try with a real zone completes.
    expect(await anon.api.firstRun.complete({ body: { ...body, timeZone: 'Europe/Vienna' } })).to.deep.equal({ username: 'owner' });
    expect(readlinkSync(path.join(root, 'etc/localtime'))).to.equal('../usr/share/zoneinfo/Europe/Vienna');
    const owner = await box.signIn('owner', 'a long owner password 1');
    expect(await owner.api.systemTime.time()).to.deep.include({ timeZone: 'Europe/Vienna', zones });
    // The first administrator may mount shares at once: SMB and SFTP rights come with setup.
    expect((await owner.api.users.list()).find((u) => u.username === 'owner')).to.include({ admin: true, smb: true, sftp: true });
    // Once set up, the list is the Time section's alone.
    await expectProblem(anon.api.firstRun.zones(), 'setup.done', 409);
  });
});
