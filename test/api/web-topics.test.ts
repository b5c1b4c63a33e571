import { expect } from 'chai';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import type { JobEvent } from '../../shared/src/topics.ts';
import { ApiError } from '../../shared/src/client.ts';
import type { ProblemDetails } from '../../shared/src/errors/index.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { TopicClient } from '../../web/src/lib/topics.ts';
import { until } from '../helpers/until.ts';

/** One subscription's record of what arrived. */
function recorder() {
  const seen = { snapshots: [] as Job[], events: [] as JobEvent[], ended: [] as ProblemDetails[] };
  return {
    seen,
    handlers: { snapshot: (s: Job) => seen.snapshots.push(s), event: (e: JobEvent) => seen.events.push(e), ended: (p: ProblemDetails) => seen.ended.push(p) },
  };
}

describe('web topics client against the real daemon', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let client: TopicClient;
  let aliveAnswers: Array<boolean | null>;

  const boot = async (config: Parameters<typeof startTestDaemon>[0] = {}) => {
    box = await startTestDaemon(config);
    box.daemon.jobs.register('test.done', { run: async () => ({ ok: true }) });
  };

  /** A finished job of the admin: a real topic with a snapshot. */
  const job = async (): Promise<Job> => box.daemon.jobs.enqueue('test.done', {}, admin.user!.id);

  beforeEach(async () => {
    await boot();
    admin = await box.signIn();
    aliveAnswers = [];
    client = new TopicClient({
      url: box.url,
      socket: { transports: ['websocket'], extraHeaders: { Cookie: admin.cookieHeader() }, reconnectionDelay: 50, reconnectionDelayMax: 100 },
      sessionAlive: async () => {
        let answer: boolean | null;
        try {
          await admin.api.auth.session();
          answer = true;
        } catch (err) {
          answer = err instanceof ApiError && err.status === 401 ? false : null;
        }
        aliveAnswers.push(answer);
        return answer;
      },
    });
  });

  afterEach(async () => {
    client.close();
    await box.close();
  });

  it('connects on the first subscription and delivers the snapshot and events of that topic only', async () => {
    const first = await job();
    const other = await job();
    expect(client.connected).to.equal(false);
    const a = recorder();
    client.subscribe('job', `jobs/${first.id}`, a.handlers);
    await until('the snapshot', () => a.seen.snapshots.length === 1);
    expect(a.seen.snapshots[0]!.id).to.equal(first.id);
    box.daemon.topics.publish(`jobs/${other.id}`, 'changed', other);
    box.daemon.topics.publish(`jobs/${first.id}`, 'changed', first);
    await until('the event', () => a.seen.events.length === 1);
    expect(a.seen.events[0]).to.deep.equal({ type: 'changed', data: first });
  });

  it('subscribes every topic again after the daemon restarts, and events flow from the new one', async () => {
    const jobs = [await job(), await job()];
    const records = jobs.map((j) => {
      const r = recorder();
      client.subscribe('job', `jobs/${j.id}`, r.handlers);
      return r;
    });
    await until('both snapshots', () => records.every((r) => r.seen.snapshots.length === 1));

    const port = Number(new URL(box.url).port);
    const dataDir = box.dataDir;
    await box.close({ keepData: true });
    await boot({ port, dataDir });

    await until('fresh snapshots from the new daemon', () => records.every((r) => r.seen.snapshots.length === 2));
    expect(aliveAnswers).to.include(true);
    for (const j of jobs) box.daemon.topics.publish(`jobs/${j.id}`, 'changed', j);
    await until('events from the new daemon', () => records.every((r) => r.seen.events.length === 1));
    expect(records.map((r) => r.seen.events[0]!.data.id)).to.deep.equal(jobs.map((j) => j.id));
  });

  it('reports a refused topic once and drops it', async () => {
    const r = recorder();
    client.subscribe('job', 'jobs/999999', r.handlers);
    await until('the refusal', () => r.seen.ended.length === 1);
    expect(r.seen.ended[0]!.code).to.equal('jobs.job.not_found');
    expect(r.seen.snapshots).to.deep.equal([]);
  });

  it('stops events after the last listener unsubscribes', async () => {
    const j = await job();
    const kept = recorder();
    const gone = recorder();
    const marker = await job();
    client.subscribe('job', `jobs/${marker.id}`, kept.handlers);
    const stop = client.subscribe('job', `jobs/${j.id}`, gone.handlers);
    await until('the snapshots', () => kept.seen.snapshots.length === 1 && gone.seen.snapshots.length === 1);
    stop();
    // Let the unsubscribe reach the box before publishing.
    await new Promise((resolve) => setTimeout(resolve, 100));
    // One socket delivers in order: once the marker's event is in, the dropped topic's would have been too.
    box.daemon.topics.publish(`jobs/${j.id}`, 'changed', j);
    box.daemon.topics.publish(`jobs/${marker.id}`, 'changed', marker);
    await until('the marker event', () => kept.seen.events.length === 1);
    expect(gone.seen.events).to.deep.equal([]);
  });

  it('stays closed when the box closed the connection because the session ended', async () => {
    const j = await job();
    const r = recorder();
    client.subscribe('job', `jobs/${j.id}`, r.handlers);
    await until('the snapshot', () => r.seen.snapshots.length === 1);
    await admin.api.auth.logout();
    await until('the session check', () => aliveAnswers.length === 1);
    expect(aliveAnswers).to.deep.equal([false]);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(client.connected).to.equal(false);
    expect(aliveAnswers).to.deep.equal([false]);
  });

  it('refuses a topic name that is not of the given kind', () => {
    expect(() => client.subscribe('job', 'logs/tail', { event: () => undefined })).to.throw(/not a job topic/);
  });
});
