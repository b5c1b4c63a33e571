import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { insertUser } from '../helpers/users.ts';
import { chronyParse, dateIn, makeTimeRoot } from '../helpers/time-root.ts';

describe('system time: zone files, chrony and the schedules that follow the zone', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let root: string;
  // 03:00 UTC on Sunday 22 November 2026; the storage schedules plan from it.
  let now = Date.UTC(2026, 10, 22, 3);
  const sources = () => path.join(root, 'etc/chrony/sources.d/cellar.sources');
  const conf = () => path.join(root, 'etc/chrony/chrony.conf');

  before(async () => {
    root = makeTimeRoot();
    box = await startTestDaemon({}, { clock: { now: () => now }, system: { root } });
    admin = await box.signIn();
  });
  after(async () => {
    await box.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("answers the box's zone, Debian's default servers, chrony's state and the zone database", async () => {
    const time = await admin.api.systemTime.time();
    expect(time.timeZone).to.equal('UTC');
    expect(time.servers).to.deep.equal([]);
    expect(time.defaultServers).to.deep.equal(['2.debian.pool.ntp.org']);
    expect(time.now).to.equal(new Date(now).toISOString());
    const chronydRuns = execFileSync('sh', ['-c', 'pgrep -x chronyd || true'], { encoding: 'utf8' }).trim() !== '';
    expect(time.sync.state).to.equal(chronydRuns ? time.sync.state : 'notRunning');
    expect(time.sync.state).to.not.equal('notInstalled');
    expect(time.zones).to.include.members(['UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata']);
    expect(time.zones).to.deep.equal([...time.zones].sort());
    expect(time.zones).to.have.length.above(300);
  });

  it('sets the zone: /etc/localtime under the root is what date reports for that zone, /etc/timezone names it', async () => {
    const time = await admin.api.systemTime.setTime({ body: { timeZone: 'Europe/Berlin', servers: [] } });
    expect(time.timeZone).to.equal('Europe/Berlin');
    expect(readlinkSync(path.join(root, 'etc/localtime'))).to.equal('../usr/share/zoneinfo/Europe/Berlin');
    expect(readFileSync(path.join(root, 'etc/timezone'), 'utf8')).to.equal('Europe/Berlin\n');
    // A winter and a summer instant: the written file and the zone name agree on both.
    for (const at of [Date.UTC(2026, 0, 15, 12) / 1000, Date.UTC(2026, 6, 15, 12) / 1000]) {
      expect(dateIn(`:${path.join(root, 'etc/localtime')}`, at)).to.equal(dateIn('Europe/Berlin', at));
    }
    expect(dateIn(`:${path.join(root, 'etc/localtime')}`, Date.UTC(2026, 6, 15, 12) / 1000)).to.match(/14:00:00 CEST \+0200$/);
    expect((await admin.api.systemTime.time()).timeZone).to.equal('Europe/Berlin');
  });

  it("writes the servers for chrony, switching Debian's pool off, and an empty list switches it back", async () => {
    const time = await admin.api.systemTime.setTime({ body: { timeZone: 'Europe/Berlin', servers: ['ntp1.example.org', '192.0.2.123', 'NTP2.Example.org'] } });
    expect(time.servers).to.deep.equal(['ntp1.example.org', '192.0.2.123', 'ntp2.example.org']);
    expect(time.defaultServers).to.deep.equal(['2.debian.pool.ntp.org']);
    // chrony parses both files: the main one without the pool, the sources file with each server.
    const main = chronyParse(conf());
    expect(main).to.not.match(/^pool /m);
    expect(main).to.contain(`sourcedir ${path.join(root, 'etc/chrony/sources.d')}`);
    const probe = path.join(root, 'probe.conf');
    writeFileSync(probe, `include ${sources()}\n`);
    expect(chronyParse(probe).trim().split('\n')).to.deep.equal([
      'server ntp1.example.org iburst',
      'server 192.0.2.123 iburst',
      'server ntp2.example.org iburst',
    ]);

    const back = await admin.api.systemTime.setTime({ body: { timeZone: 'Europe/Berlin', servers: [] } });
    expect(back.servers).to.deep.equal([]);
    expect(existsSync(sources())).to.equal(false);
    expect(chronyParse(conf())).to.match(/^pool 2\.debian\.pool\.ntp\.org iburst$/m);
    expect(readFileSync(conf(), 'utf8')).to.not.contain('#cellar-off#');
  });

  it('moves the planned runs of the storage schedules to the same time of day in the new zone', async () => {
    await admin.api.systemTime.setTime({ body: { timeZone: 'UTC', servers: [] } });
    now = Date.UTC(2026, 10, 22, 3);
    const planned = await admin.api.storage.setSchedules({ body: { smartSelfTest: { frequency: 'weekly' } } });
    expect(planned.smartSelfTest.nextRunAt).to.equal('2026-11-29T03:00:00.000Z');
    // 03:00 UTC becomes 03:00 in Tokyo (18:00 UTC the day before), then 03:00 in New York.
    await admin.api.systemTime.setTime({ body: { timeZone: 'Asia/Tokyo', servers: [] } });
    expect((await admin.api.storage.schedules()).smartSelfTest.nextRunAt).to.equal('2026-11-28T18:00:00.000Z');
    await admin.api.systemTime.setTime({ body: { timeZone: 'America/New_York', servers: [] } });
    expect((await admin.api.storage.schedules()).smartSelfTest.nextRunAt).to.equal('2026-11-29T08:00:00.000Z');
    // New plans keep the wall-clock time across a clock change: a month from 03:00 EDT on 1 October is 03:00 EST.
    await admin.api.storage.setSchedules({ body: { smartSelfTest: { frequency: 'off' } } });
    now = Date.UTC(2026, 9, 1, 7);
    expect((await admin.api.storage.setSchedules({ body: { smartSelfTest: { frequency: 'monthly' } } })).smartSelfTest.nextRunAt).to.equal(
      '2026-11-01T08:00:00.000Z',
    );
    now = Date.UTC(2026, 10, 22, 3);
  });

  it('refuses unknown zones, bad servers, the unauthenticated and non-administrators', async () => {
    for (const timeZone of ['Mars/Olympus_Mons', 'posixrules', 'leapseconds']) {
      const err = await expectProblem(admin.api.systemTime.setTime({ body: { timeZone, servers: [] } }), 'system.zone.unknown', 400);
      expect(err.problem.params).to.deep.equal({ timeZone });
    }
    const bad = [
      { timeZone: '../etc/passwd', servers: [] },
      { timeZone: 'Europe/Berlin', servers: ['two words'] },
      { timeZone: 'Europe/Berlin', servers: ['a.example.org', 'A.example.org'] },
      { timeZone: 'Europe/Berlin', servers: Array.from({ length: 9 }, (_, i) => `ntp${i}.example.org`) },
      { timeZone: 'Europe/Berlin', servers: ['server evil.example.org\nallow all'] },
      { timeZone: 'Europe/Berlin' },
    ];
    for (const body of bad) await expectProblem(admin.api.systemTime.setTime({ body: body as never }), 'request.body.invalid', 400);
    expect(readFileSync(conf(), 'utf8')).to.not.contain('evil');
    await expectProblem(box.client().api.systemTime.time(), 'auth.session.required', 401);
    await insertUser(box, 'olga', 'olga password 1');
    const olga = await box.signIn('olga', 'olga password 1');
    await expectProblem(olga.api.systemTime.time(), 'auth.permission.denied', 403);
    await expectProblem(olga.api.systemTime.setTime({ body: { timeZone: 'UTC', servers: [] } }), 'auth.permission.denied', 403);
  });
});
