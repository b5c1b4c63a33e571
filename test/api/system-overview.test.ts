import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { expect } from 'chai';
import type { ResourceHistory, ResourceSample } from '../../shared/src/api/system/monitor.ts';
import type { LogEntry } from '../../shared/src/api/logs/logs.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { connectSocket } from '../helpers/socket.ts';
import { insertUser } from '../helpers/users.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('system overview, power and the resource monitor', () => {
  let box: TestDaemon;
  let admin: TestClient;
  const powerDelayMs = 300;

  before(async () => {
    box = await startTestDaemon({}, { system: { powerDelayMs } });
    admin = await box.signIn();
  });
  after(() => box.close());

  const logged = async (search: string): Promise<LogEntry[]> => (await admin.api.logs.list({ query: { search } })).items;

  it('tells what the box is: version, commit, operating system, kernel, processor, memory, host name, uptime', async () => {
    const overview = await admin.api.systemOverview.overview();
    expect(overview.version).to.equal((await admin.api.system.health()).version);
    expect(overview.commit).to.equal(execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim());
    expect(overview.operatingSystem).to.match(/^Debian GNU\/Linux/);
    expect(overview.kernel).to.equal(os.release());
    expect(overview.architecture).to.equal(os.machine());
    expect(overview.processor.cores).to.equal(os.availableParallelism());
    expect(overview.processor.model).to.not.equal('');
    expect(overview.memory.totalBytes).to.equal(os.totalmem());
    expect(overview.hostName).to.equal(os.hostname());
    expect(overview.uptimeSeconds).to.be.closeTo(os.uptime(), 5);
    expect(Date.parse(overview.daemonStartedAt)).to.be.at.most(Date.now());
  });

  it('restarts for an administrator after the answer, naming unfinished jobs; development mode logs the command', async () => {
    const answer = await admin.api.systemOverview.power({ body: { action: 'restart' } });
    expect(answer.action).to.equal('restart');
    expect(answer.jobs).to.deep.equal([]);
    expect(Date.parse(answer.at) - Date.now()).to.be.within(0, powerDelayMs);
    // A second request while the first is pending is refused with when the first acts.
    const pending = await expectProblem(admin.api.systemOverview.power({ body: { action: 'shutdown' } }), 'system.power.pending', 409);
    expect(pending.problem.params).to.deep.equal({ action: 'restart', at: answer.at });
    const [asked] = await logged('restart requested');
    expect(asked?.fields).to.include({ action: 'restart', username: 'admin' });
    expect(asked?.userId).to.equal(admin.user?.id);
    await sleep(powerDelayMs + 300);
    const [command] = await logged('power command');
    expect(command?.message).to.equal('power command (development mode: not run)');
    expect(command?.fields.argv).to.deep.equal(['systemctl', 'reboot']);
    const [wouldRun] = (await logged('would run')).filter((e) => JSON.stringify(e.fields.argv) === '["systemctl","reboot"]');
    expect(wouldRun?.level).to.equal('debug');
  });

  it('acts on one of a restart and a shut-down sent at once and refuses the other', async () => {
    const answers = await Promise.all(['restart', 'shutdown'].map((action) => admin.request('POST', '/api/system/power', { body: { action } })));
    expect(answers.map((a) => a.status).sort()).to.deep.equal([202, 409]);
    expect(((await answers.find((a) => a.status === 409)!.json()) as { code: string }).code).to.equal('system.power.pending');
    await sleep(powerDelayMs + 300);
    expect((await admin.api.systemOverview.powerState()).pending).to.equal(null);
  });

  it('lets a user holding the restart and shut-down right shut down, names the running jobs; without the right it is denied', async () => {
    const userId = await insertUser(box, 'piet', 'piet password 1');
    const piet = await box.signIn('piet', 'piet password 1');
    await expectProblem(piet.api.systemOverview.power({ body: { action: 'shutdown' } }), 'auth.permission.denied', 403);
    await expectProblem(piet.api.systemOverview.overview(), 'auth.permission.denied', 403);
    await expectProblem(piet.api.systemOverview.powerState(), 'auth.permission.denied', 403);
    await admin.api.permissions.setUserGrants({ params: { userId }, body: { rights: ['system.power'] } });
    // A job that runs until it is told to stop: the restart will cut it.
    let release = (): void => {};
    box.daemon.jobs.register('test.longWork', { run: () => new Promise<null>((resolve) => (release = () => resolve(null))) });
    const job = await box.daemon.jobs.enqueue('test.longWork', {}, userId);
    const cut = [{ id: job.id, kind: 'test.longWork', state: 'running', userId }];
    expect(await piet.api.systemOverview.powerState()).to.deep.equal({ pending: null, jobs: cut });
    const answer = await piet.api.systemOverview.power({ body: { action: 'shutdown' } });
    expect(answer.jobs).to.deep.equal(cut);
    expect((await piet.api.systemOverview.powerState()).pending).to.deep.equal({ action: 'shutdown', at: answer.at });
    const [asked] = await logged('shut-down requested');
    expect(asked?.fields).to.include({ action: 'shutdown', username: 'piet' });
    expect(asked?.userId).to.equal(userId);
    await sleep(powerDelayMs + 300);
    const [command] = await logged('power command');
    expect(command?.fields.argv).to.deep.equal(['systemctl', 'poweroff']);
    release();
  });

  it('refuses a bad power request and the unauthenticated', async () => {
    for (const body of [{ action: 'reboot' }, {}, { action: 'restart', delay: 1 }]) {
      await expectProblem(admin.api.systemOverview.power({ body: body as never }), 'request.body.invalid', 400);
    }
    await expectProblem(box.client().api.systemOverview.power({ body: { action: 'restart' } }), 'auth.session.required', 401);
    await expectProblem(box.client().api.systemOverview.overview(), 'auth.session.required', 401);
  });

  it('samples each second only while somebody watches system/monitor, keeping the samples for the next first paint', async () => {
    const watcher = await connectSocket(box.url, admin);
    try {
      const first = await watcher.subscribe('system/monitor');
      expect(first.ok).to.equal(true);
      const history = (first as { snapshot: ResourceHistory }).snapshot;
      expect(history.intervalMs).to.equal(1000);
      expect(history.samples).to.deep.equal([]);
      const sample = (await watcher.nextEvent('system/monitor', 4000)).data as ResourceSample;
      expect(sample.cpu).to.be.within(0, 1);
      expect(sample.memory.totalBytes).to.equal(os.totalmem());
      expect(sample.memory.usedBytes).to.be.within(1, os.totalmem());
      expect(sample.network.map((n) => n.name)).to.not.include('lo');
      for (const t of [...sample.network, ...sample.disks]) expect(t.inPerSecond).to.be.at.least(0);
      await watcher.nextEvent('system/monitor', 4000);
      await watcher.unsubscribe('system/monitor');
      const stoppedAt = Date.now();
      await sleep(3500);
      const again = await watcher.subscribe('system/monitor');
      const kept = (again as { snapshot: ResourceHistory }).snapshot.samples;
      expect(kept.length).to.be.at.least(2);
      // Nothing was sampled while nobody watched: the last kept sample is from before the unsubscribe (one tick may still finish).
      expect(Date.parse(kept[kept.length - 1]!.at)).to.be.below(stoppedAt + 1000);
      const next = (await watcher.nextEvent('system/monitor', 4000)).data as ResourceSample;
      expect(Date.parse(next.at)).to.be.above(stoppedAt + 3000);
    } finally {
      watcher.close();
    }
  });

  it('stops sampling when the last watcher disconnects, and refuses non-administrators', async () => {
    const watcher = await connectSocket(box.url, admin);
    await watcher.subscribe('system/monitor');
    await watcher.nextEvent('system/monitor', 4000);
    watcher.close();
    const closedAt = Date.now();
    await sleep(2500);
    const again = await connectSocket(box.url, admin);
    try {
      const kept = ((await again.subscribe('system/monitor')) as { snapshot: ResourceHistory }).snapshot.samples;
      expect(Date.parse(kept[kept.length - 1]!.at)).to.be.below(closedAt + 1000);
    } finally {
      again.close();
    }
    const piet = await box.signIn('piet', 'piet password 1');
    const socket = await connectSocket(box.url, piet);
    try {
      const refused = await socket.subscribe('system/monitor');
      expect(refused.ok).to.equal(false);
      expect((refused as { problem: { code: string } }).problem.code).to.equal('auth.permission.denied');
    } finally {
      socket.close();
    }
  });
});
