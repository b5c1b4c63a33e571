import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import desktopDe from '../../web/src/desktop/i18n/de.json' with { type: 'json' };
import desktopEn from '../../web/src/desktop/i18n/en.json' with { type: 'json' };
import { fill } from '../helpers/app-packages.ts';
import { screenshotPath, startBrowserBox, stopBrowserBox, type BrowserBox } from '../helpers/browser.ts';
import type { TestClient } from '../helpers/daemon.ts';
import { openDesktop } from '../helpers/desktop.ts';
import { finished } from '../helpers/file-operations.ts';
import { registerTestKinds, waitForJob } from '../helpers/jobs.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';

/** The tasks tray names jobs by what they do, and a failed job raises a notification, in English and German. */
describe('e2e: job titles in the tasks tray and failed-job notifications', function () {
  this.timeout(120_000);
  let started: BrowserBox;
  let admin: TestClient;

  before(async () => {
    started = await startBrowserBox();
    registerTestKinds(started.box.daemon.jobs);
    admin = await started.box.signIn();
  });
  after(async () => {
    await stopBrowserBox(started);
    removeTempFolders();
  });

  for (const [language, desktop, viewport] of [
    ['en', desktopEn, { width: 1366, height: 820 }],
    ['de', desktopDe, { width: 390, height: 844 }],
  ] as const) {
    it(`names a copy and says a job failed, in ${language} at ${viewport.width} px`, async () => {
      await started.box.daemon.db.query(`UPDATE users SET language = '${language}' WHERE username = 'admin'`);
      const { share, folder } = await makeShare(admin, `Family-${language}`);
      mkdirSync(path.join(folder, 'Holidays'));
      for (const name of ['a.txt', 'b.txt']) writeFileSync(path.join(folder, name), name);
      const copy = await admin.api.fileOperations.run({
        body: { op: 'copy', sources: ['a.txt', 'b.txt'].map((p) => ({ shareId: share.id, path: p })), target: { shareId: share.id, path: 'Holidays' } },
      });
      await finished(admin, copy.id);
      const failed = await started.box.daemon.jobs.enqueue('test.crash', {}, admin.user!.id);
      await waitForJob(admin, failed.id, (j) => j.state === 'failed', 'the job to fail');

      const { context, page } = await openDesktop(started.browser, started.box.url, { viewport, locale: language });
      try {
        // The notification centre tells of the failure by the job and the problem.
        await page.getByRole('button', { name: new RegExp(fill(desktop['notify.button'], { count: '\\d+' })) }).click();
        const centre = page.getByRole('region', { name: desktop['notify.title'] });
        await centre.getByText(desktop['notification.jobs.failed.title']).first().waitFor();
        await page.keyboard.press('Escape');

        await page.getByRole('button', { name: new RegExp(fill(desktop['jobs.button'], { count: '\\d+' })) }).click();
        const tray = page.getByRole('region', { name: desktop['jobs.title'] });
        const row = tray.locator(`[data-job="${copy.id}"]`);
        expect((await row.locator('strong').textContent())?.trim()).to.equal(fill(desktop['jobs.named.files.copy.to.other'], { count: 2, target: 'Holidays' }));
        expect(await tray.textContent()).to.not.contain('files.operation');
        await page.screenshot({ path: screenshotPath(`jobs-tray-${language}`) });
      } finally {
        await context.close();
      }
    });
  }
});
