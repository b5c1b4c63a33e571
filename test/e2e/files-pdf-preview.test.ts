import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Frame, Page } from 'playwright-core';
import type { ShareInfo } from '../../shared/src/api/shares/shares.ts';
import de from '../../web/src/apps/files/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/files/i18n/en.json' with { type: 'json' };
import { phoneViewport, screenshotPath, signInThroughPage, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { adminPassword, type TestDaemon } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';
import { until } from '../helpers/until.ts';

const appPath = '/app/org.service.files';

/** A one-page PDF written by hand (a few hundred bytes): a page with "Hello PDF" in Helvetica. */
function smallPdf(): Buffer {
  const text = 'BT /F1 18 Tf 20 40 Td (Hello PDF) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Runs in a frame: whether it can read the desktop's page above it. */
const parentReach = () => {
  try {
    return `read ${window.parent.document.title}`;
  } catch {
    return 'blocked';
  }
};

describe('e2e: Files previews a PDF in the browser’s own viewer, sandboxed', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let share: ShareInfo;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    const admin = await box.signIn();
    let folder: string;
    ({ share, folder } = await makeShare(admin, 'Papers'));
    const pdf = smallPdf();
    expect(pdf.length).to.be.below(1000);
    writeFileSync(path.join(folder, 'letter.pdf'), pdf);
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
    removeTempFolders();
  });

  const views = [
    { language: 'en', dict: en, viewport: { width: 1366, height: 820 }, phone: false },
    { language: 'de', dict: de, viewport: phoneViewport, phone: true },
  ] as const;

  for (const view of views) {
    it(`opens letter.pdf in the browser’s PDF viewer, which cannot reach the desktop (${view.language}, ${view.viewport.width} px)`, async () => {
      await box.daemon.db.query('UPDATE users SET language = ? WHERE username = ?', { replacements: [view.language, 'admin'] });
      const context = await browser.newContext({
        locale: view.language,
        viewport: view.viewport,
        hasTouch: view.phone,
        isMobile: view.phone,
        acceptDownloads: true,
      });
      try {
        const page: Page = await context.newPage();
        let downloaded = false;
        page.on('download', () => (downloaded = true));
        await signInThroughPage(page, box.url, 'admin', adminPassword);
        await page.goto(`${box.url}${appPath}/${share.id}`);
        const row = page.locator('[role="option"][data-name="letter.pdf"]');
        await row.waitFor();
        // Select, then Enter: the same on a laptop and a phone.
        await row.click();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: view.dict['files.preview.title'].replace('{name}', 'letter.pdf') });
        await dialog.waitFor();
        const frame = dialog.locator('iframe[title="letter.pdf"]');
        const src = new URL((await frame.getAttribute('src'))!, box.url);
        expect(src.pathname).to.equal(`/api/files/${share.id}/content`);
        expect(src.searchParams.get('inline')).to.equal('true');
        // The browser's PDF viewer loaded inside the frame (Chromium runs it as its own extension page).
        let pdfFrame: Frame | undefined;
        await until('the PDF viewer in the preview', () => {
          pdfFrame = page.frames().find((f) => f.url().startsWith(`${box.url}/api/files/${share.id}/content`));
          return pdfFrame !== undefined && page.frames().some((f) => f.url().startsWith('chrome-extension://'));
        });
        // The viewer runs in the browser's own origin: it cannot reach the desktop's page.
        const viewer = page.frames().find((f) => f.url().startsWith('chrome-extension://'))!;
        expect(await viewer.evaluate(parentReach)).to.equal('blocked');
        // The framed answer is the viewer's shell, typed by the daemon as a PDF (never sniffed), with no script of the file's.
        expect(await pdfFrame!.evaluate(() => [document.contentType, document.scripts.length])).to.deep.equal(['application/pdf', 0]);
        const box1 = await frame.boundingBox();
        expect(box1!.width).to.be.greaterThan(view.viewport.width / 2);
        expect(box1!.x + box1!.width).to.be.at.most(view.viewport.width + 0.5);
        await page.screenshot({ path: screenshotPath(`files-pdf-preview-${view.language}-${view.viewport.width}`) });
        expect(downloaded, 'a PDF is shown, not downloaded').to.equal(false);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      } finally {
        await context.close();
        await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
      }
    });
  }

  it('runs nothing of an HTML page named .pdf, and frames an HTML file only in an origin of its own', async () => {
    const admin = await box.signIn();
    const folder = (await admin.api.shares.list()).find((s) => s.id === share.id)!.hostPath!;
    const script = '<script>try { parent.document.title = "owned"; } catch (e) {} document.title = "ran";</script>';
    writeFileSync(path.join(folder, 'invoice.pdf'), `<html><body>${script}</body></html>`);
    writeFileSync(path.join(folder, 'page.html'), `<html><body>${script}</body></html>`);
    const context = await browser.newContext({ locale: 'en', viewport: { width: 1366, height: 820 }, acceptDownloads: true });
    try {
      const page = await context.newPage();
      await signInThroughPage(page, box.url, 'admin', adminPassword);
      await page.goto(`${box.url}${appPath}/${share.id}`);
      const title = await page.title();
      const row = page.locator('[role="option"][data-name="invoice.pdf"]');
      await row.click();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: en['files.preview.title'].replace('{name}', 'invoice.pdf') });
      await dialog.waitFor();
      await until('the hostile file framed', () => page.frames().some((f) => f.url().includes('invoice.pdf')));
      await page.waitForTimeout(1500);
      const framed = page.frames().find((f) => f.url().includes('invoice.pdf'))!;
      // Typed as a PDF and never sniffed: the HTML inside is not a page, so its script never ran.
      expect(await framed.evaluate(() => [document.contentType, document.title])).to.deep.equal(['application/pdf', '']);
      expect(await page.title()).to.equal(title);
      await dialog.getByRole('button', { name: en['files.action.close'] }).click();
      await dialog.waitFor({ state: 'detached' });
      // An HTML file framed by its inline address (as a hostile page of the box might try) is sandboxed: an opaque
      // origin, no scripts, no reach into the desktop.
      const inline = `/api/files/${share.id}/content?path=page.html&inline=true`;
      await page.evaluate((src) => {
        const f = document.createElement('iframe');
        f.src = src;
        f.title = 'hostile';
        document.body.append(f);
      }, inline);
      await until('the HTML file framed', () => page.frames().some((f) => f.url().includes('page.html')));
      const html = page.frames().find((f) => f.url().includes('page.html'))!;
      await html.waitForLoadState();
      expect(await html.evaluate(() => [self.origin, document.title])).to.deep.equal(['null', '']);
      expect(await html.evaluate(parentReach)).to.equal('blocked');
      expect(await page.title()).to.equal(title);
    } finally {
      await context.close();
    }
  });
});
