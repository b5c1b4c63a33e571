import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { jobTitleText } from '../../web/src/lib/job-title.ts';
import { notificationText } from '../../web/src/desktop/tray/notification-text.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { finished } from '../helpers/file-operations.ts';
import { eventually } from '../helpers/desktop.ts';
import { registerTestKinds } from '../helpers/jobs.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';

describe('jobs: titles that say what a job does, and a notification when one fails', () => {
  let box: TestDaemon;
  let admin: TestClient;

  before(async () => {
    box = await startTestDaemon();
    registerTestKinds(box.daemon.jobs);
    admin = await box.signIn();
  });
  after(async () => {
    await box.close();
    removeTempFolders();
  });

  it('titles a copy by how many entries go to which folder, in English and German', async () => {
    const { share, folder } = await makeShare(admin, 'Family');
    mkdirSync(path.join(folder, 'Holidays'));
    for (const name of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(path.join(folder, name), name);
    const sources = ['a.txt', 'b.txt', 'c.txt'].map((p) => ({ shareId: share.id, path: p }));
    const intoShare = await admin.api.fileOperations.run({ body: { op: 'copy', sources, target: { shareId: share.id, path: 'Holidays' } } });
    expect(intoShare.title).to.deep.equal({ code: 'files.copy', params: { count: 3, target: 'Holidays' } });
    await finished(admin, intoShare.id);
    // At the top of a share the target is the share's name; the title stays in the job list.
    const one = await admin.api.fileOperations.run({ body: { op: 'copy', sources: [sources[0]!], target: { shareId: share.id, path: '' } } });
    await finished(admin, one.id);
    const listed = (await admin.api.jobs.list()).find((j) => j.id === one.id)!;
    expect(listed.title).to.deep.equal({ code: 'files.copy', params: { count: 1, target: 'Family' } });

    expect(jobTitleText('en', intoShare.title, intoShare.kind)).to.equal('Copying 3 items to Holidays');
    expect(jobTitleText('de', intoShare.title, intoShare.kind)).to.equal('3 Elemente werden nach Holidays kopiert');
    expect(jobTitleText('en', listed.title, listed.kind)).to.equal('Copying 1 item to Family');
  });

  it('titles a kind without its own title by its kind, which the web names where it knows it', async () => {
    const job = await box.daemon.jobs.enqueue('test.echo', { n: 1 }, admin.user!.id);
    expect(job.title).to.deep.equal({ code: 'test.echo', params: {} });
    expect(jobTitleText('de', job.title, job.kind)).to.equal('test.echo');
    expect(jobTitleText('en', { code: 'store.sync', params: {} }, 'store.sync')).to.equal('Fetching the app catalog');
    expect(jobTitleText('de', { code: 'store.sync', params: {} }, 'store.sync')).to.equal('App-Katalog wird abgerufen');
  });

  it("notifies the owner of a failed job with its title and why, in the reader's language", async () => {
    const job = await box.daemon.jobs.enqueue('test.crash', {}, admin.user!.id);
    const notification = (await eventually(
      async () => (await admin.api.notifications.list()).items.find((n) => n.type === 'jobs.failed' && n.params?.jobId === job.id),
      (found) => found !== undefined,
      'the failed-job notification',
    ))!;
    expect(notification).to.include({ level: 'error', code: 'jobs.failed' });
    expect(notification.params).to.deep.equal({ job: 'test.crash', problem: 'server.internal.error', jobId: job.id });
    expect(notificationText('en', notification)).to.deep.equal({ title: 'A task failed', body: 'test.crash: Something went wrong on the box.' });
    expect(notificationText('de', notification).title).to.equal('Eine Aufgabe ist fehlgeschlagen');
  });

  it('raises no notification for a job that succeeded or was cancelled', async () => {
    const ok = await box.daemon.jobs.enqueue('test.echo', { n: 2 }, admin.user!.id);
    await finished(admin, ok.id);
    const gate = await box.daemon.jobs.enqueue('test.gate', {}, admin.user!.id);
    await admin.api.jobs.cancel({ params: { id: gate.id } });
    await finished(admin, gate.id);
    const failed = (await admin.api.notifications.list()).items.filter((n) => n.type === 'jobs.failed').map((n) => n.params?.jobId);
    expect(failed).to.not.include.members([ok.id, gate.id]);
  });
});
