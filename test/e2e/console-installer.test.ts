import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import de from '../../console/src/renderer/i18n/de.json' with { type: 'json' };
import en from '../../console/src/renderer/i18n/en.json' with { type: 'json' };
import type { KnownBox } from '../../console/src/node/box-store.ts';
import { TlsStore } from '../../daemon/src/areas/tls/tls-store.ts';
import { expectBiosLoader } from '../helpers/bios-loader.ts';
import { assertChromium, expectText, launchChromium, screenshotPath } from '../helpers/browser.ts';
import { openConsolePage, overflowScript, serveConsolePages, socketBridge } from '../helpers/console-pages.ts';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { systemTestImage, InstallerDisks } from '../helpers/installer-disks.ts';
import { startInNamespace } from '../helpers/mdns-namespace.ts';
import { expectOwnerAccount } from '../helpers/target-accounts.ts';

const sh = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 90_000 });
const quiet = (argv: string[]) => {
  try {
    sh(argv);
  } catch {
    // Cleanup goes on past what the setup never made.
  }
};
const mib = 1024 * 1024;
const password = 'the owner password 1';

/**
 * The installer wizard from claim to done: the console's pages in Chromium, the console's Node
 * side and a real installer-mode daemon in a network namespace of the test's own (its network
 * test reaches a gateway in a second namespace; mDNS stays inside), installing for real onto a
 * loop device (root). Loop devices, namespaces and mounts go away also after a failure; the
 * installer's own mounts live in the sidecar's mount namespace (ip netns exec) and end with it.
 */
describe('e2e: console installer wizard against a real installer-mode daemon, claim to done (root)', function () {
  this.timeout(15 * 60_000);
  const box = `cellar-wiz-box-${process.pid}`;
  const gw = `cellar-wiz-gw-${process.pid}`;
  const resolvDir = path.join('/etc/netns', box);
  let disks: InstallerDisks;
  let target: string;
  let guarded: string;
  let gateway: ChildProcess | undefined;
  let sidecar: Awaited<ReturnType<typeof startInNamespace<{ daemonUrl: string }>>> | undefined;
  let screen = '';
  let pages: { url: string; server: Server } | undefined;
  let browser: Browser | undefined;
  let installed: TestDaemon | undefined;
  let page: Page;

  before(async () => {
    assertChromium();
    disks = new InstallerDisks();
    target = disks.add('1G');
    guarded = disks.add('1G');
    sh(['mkfs.ext4', '-q', guarded]);
    const image = systemTestImage();

    sh(['ip', 'netns', 'add', box]);
    sh(['ip', 'netns', 'add', gw]);
    sh(['ip', 'link', 'add', 'cwiz-lan0', 'netns', box, 'type', 'veth', 'peer', 'name', 'cwiz-gw0', 'netns', gw]);
    sh(['ip', '-n', box, 'link', 'set', 'cwiz-lan0', 'name', 'lan0']);
    // mDNS on the box namespace's loopback, as in test/helpers/mdns-namespace.ts.
    sh(['ip', '-n', box, 'link', 'set', 'lo', 'up', 'multicast', 'on']);
    sh(['ip', '-n', box, 'addr', 'add', '10.78.0.2/24', 'dev', 'lan0']);
    sh(['ip', '-n', box, 'link', 'set', 'lan0', 'up']);
    sh(['ip', '-n', box, 'route', 'add', 'default', 'via', '10.78.0.1']);
    sh(['ip', '-n', box, 'route', 'add', '224.0.0.0/4', 'dev', 'lo']);
    sh(['ip', '-n', gw, 'link', 'set', 'lo', 'up']);
    sh(['ip', '-n', gw, 'addr', 'add', '10.78.0.1/24', 'dev', 'cwiz-gw0']);
    sh(['ip', '-n', gw, 'link', 'set', 'cwiz-gw0', 'up']);
    // `ip netns exec` puts this over /etc/resolv.conf: the medium's name server is the test's gateway.
    mkdirSync(resolvDir, { recursive: true });
    writeFileSync(path.join(resolvDir, 'resolv.conf'), 'nameserver 10.78.0.1\n');
    gateway = spawn('ip', ['netns', 'exec', gw, process.execPath, '--import=tsx', path.join(import.meta.dirname, '../helpers/net-gateway.ts'), '10.78.0.1'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      gateway!.stdout!.once('data', () => resolve());
      gateway!.once('exit', (code) => reject(new Error(`the gateway exited with ${code}`)));
    });

    const socketPath = path.join(disks.work, 'bridge.sock');
    sidecar = await startInNamespace(box, 'test/helpers/installer-sidecar.ts', {
      socketPath,
      dataDir: path.join(disks.work, 'data'),
      image,
      registryUrl: 'http://registry.cellar.test/debian/dists/bookworm/InRelease',
      minDiskBytes: 512 * mib,
    });
    sidecar.child.stdout!.on('data', (d: Buffer) => (screen += d.toString()));

    pages = await serveConsolePages();
    browser = await launchChromium();
    page = await openConsolePage(browser, pages.url, socketBridge(socketPath));
  });
  after(async () => {
    await installed?.close({ keepData: true });
    await browser?.close();
    pages?.server.close();
    await sidecar?.stop();
    gateway?.kill();
    quiet(['ip', 'netns', 'del', box]);
    quiet(['ip', 'netns', 'del', gw]);
    rmSync(resolvDir, { recursive: true, force: true });
    disks?.cleanup();
  });

  it("claims the announced box, shows the line its screen shows (the code beside the key's fingerprint), and goes on once the owner confirms it", async () => {
    const card = page.locator('li.card').filter({ hasText: en['boxes.mode.installer'] });
    await card.waitFor({ timeout: 15_000 });
    const name = (await card.getAttribute('data-box'))!;
    await card.getByRole('button', { name: en['boxes.install'] }).click();
    await expectText(page.getByRole('heading', { level: 2 }), en['wizard.title'].replace('{name}', name));
    await page.getByRole('button', { name: en['wizard.claim.submit'] }).press('Enter');
    const line = /code \d{3} \d{3} · key [0-9A-F]{4}( [0-9A-F]{4}){4}/;
    const shown = page.getByRole('status').filter({ hasText: line });
    await shown.waitFor();
    const consoleLine = (await shown.textContent())!.trim();
    for (const deadline = Date.now() + 5000; !line.test(screen) && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 50));
    // The box's screen: its tty (the daemon's standard output) and the file beside its state.
    expect(line.exec(screen)?.[0], screen).to.equal(consoleLine);
    const screenFile = readFileSync(path.join(disks.work, 'data', 'screen'), 'utf8');
    expect(line.exec(screenFile)?.[0], screenFile).to.equal(consoleLine);
    expect(screenFile).to.include(`https://10.78.0.2:${new URL(sidecar!.ready.daemonUrl).port}\n`);
    expect(await page.locator('input[type=radio]').count()).to.equal(0);
    await page.screenshot({ path: screenshotPath('console-wizard-claim-390'), fullPage: true });
    await page.getByRole('button', { name: en['wizard.claim.confirm'] }).click();
  });

  it('shows the guarded disk refused and picks the empty loop disk', async () => {
    const refused = page.locator(`input[type=radio][value="${path.basename(guarded)}"]`);
    expect(await refused.isDisabled()).to.equal(true);
    const hint = page.locator('label.ui-check', { has: refused }).locator('xpath=following-sibling::p[1]');
    expect(await hint.textContent()).to.contain(en['wizard.disks.refused'].replace('{reason}', ''));
    const next = page.getByRole('button', { name: en['wizard.next'] });
    expect(await next.isDisabled()).to.equal(true);
    await page.locator(`input[type=radio][value="${path.basename(target)}"]`).check();
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('console-wizard-disks-390'), fullPage: true });
    await next.click();
  });

  it("tests the medium's network: gateway, name resolution and registry pass", async () => {
    await page.getByRole('button', { name: en['wizard.network.start'] }).click();
    const state = page.getByRole('status').filter({ hasText: en['wizard.network.state'].replace('{state}', '') });
    const running = en['wizard.network.state'].replace('{state}', en['wizard.network.state.running']);
    for (const deadline = Date.now() + 30_000; (await state.textContent().catch(() => ''))?.trim() === running && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 200));
    // The box's states in the console's words, in the language shown: switching to German and back.
    for (const words of [en, de]) {
      if (words === de) await page.getByLabel(en['app.language']).selectOption('de');
      await expectText(page.getByRole('status'), words['wizard.network.state'].replace('{state}', words['wizard.network.state.passed']));
      const checks = (await page.locator('.card ul li').allTextContents()).map((c) => c.trim().split(' (')[0]);
      const passed = (check: keyof typeof words) => `${words[check]}: ${words['wizard.network.checkState.passed']}`;
      expect(checks).to.deep.equal([passed('wizard.network.check.gateway'), passed('wizard.network.check.dns'), passed('wizard.network.check.registry')]);
    }
    await page.getByLabel(de['app.language']).selectOption('en');
    await page.getByRole('button', { name: en['wizard.next'] }).click();
  });

  it('sets administrator, box name, language, region and time zone, and installs with progress to done after a confirmation', async () => {
    await page.getByLabel(en['wizard.settings.admin'], { exact: true }).fill('owner');
    await page.getByLabel(en['wizard.settings.password'], { exact: true }).fill(password);
    await page.getByLabel(en['wizard.settings.boxName'], { exact: true }).fill('Wizard Box');
    await page.getByLabel(en['wizard.settings.language'], { exact: true }).selectOption('de');
    await page.getByLabel(en['wizard.settings.region'], { exact: true }).selectOption('AT');
    await page.getByLabel(en['wizard.settings.timeZone'], { exact: true }).selectOption('Europe/Vienna');
    await page.getByLabel(en['wizard.settings.fileSystem'], { exact: true }).selectOption('ext4');
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    await page.getByLabel(en['wizard.settings.boxName'], { exact: true }).press('Enter');

    await page.getByRole('button', { name: en['wizard.install.submit'] }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).to.contain(en['wizard.install.confirm'].replace('{disks}', path.basename(target)));
    await dialog.getByRole('button', { name: en['wizard.install.submit'] }).click();

    const bar = page.getByRole('progressbar', { name: en['wizard.install.progress'] });
    await bar.waitFor({ timeout: 10_000 });
    const seen = new Set<string>();
    const done = page.getByRole('status').filter({ hasText: en['wizard.install.done'] });
    const failed = page.getByRole('alert').filter({ hasText: en['wizard.install.failed'].replace('{reason}', '').trim() });
    for (const deadline = Date.now() + 10 * 60_000; Date.now() < deadline;) {
      if ((await done.count()) > 0 || (await failed.count()) > 0) break;
      const now = await bar.getAttribute('aria-valuenow', { timeout: 1000 }).catch(() => null);
      if (now !== null) seen.add(now);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(await failed.count(), (await failed.allTextContents()).join()).to.equal(0);
    await expectText(done, en['wizard.install.done']);
    // The bar moved through more than one value on the way.
    expect(seen.size, [...seen].join()).to.be.greaterThan(1);
    expect(await page.getByRole('button', { name: en['wizard.reboot'] }).count()).to.equal(1);
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('console-wizard-done-390'), fullPage: true });
  });

  it("keeps the installed box with its root pinned, the root the installation made in the box's data directory", async () => {
    const stored = JSON.parse(readFileSync(path.join(disks.work, 'boxes.json'), 'utf8')) as { boxes: KnownBox[] };
    const kept = stored.boxes.find((b) => b.url === `https://10.78.0.2:${new URL(sidecar!.ready.daemonUrl).port}`);
    expect(kept, JSON.stringify(stored)).to.not.equal(undefined);
    expect(kept!.name).to.equal('Wizard Box');
    const root = disks.mount(`${target}p3`, 'pin-root');
    const made = new TlsStore(path.join(root, 'var/lib/cellar/tls'), path.join(root, 'var/lib/cellar/tls-secret')).rootPem()!;
    expect(kept!.pin).to.deep.include({ pem: new X509Certificate(made).toString(), sha256: new X509Certificate(made).fingerprint256 });
    await expectText(page.locator('p.fingerprint').last(), en['wizard.install.rootPinned'].replace('{fingerprint}', kept!.pin!.sha256));
  });

  it('asks the box to restart: the answer comes first, and the wizard says the box restarts', async () => {
    await page.getByRole('button', { name: en['wizard.reboot'] }).click();
    const rebooting = page.getByRole('status').filter({ hasText: en['wizard.rebooting'] });
    const alert = page.locator('.card > .ui-error[role=alert]');
    for (const deadline = Date.now() + 10_000; (await rebooting.count()) === 0 && !(await alert.textContent()) && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 100));
    expect(await alert.textContent()).to.equal('');
    await expectText(rebooting, en['wizard.rebooting']);
  });

  it("leaves the chosen settings in the target's files and an installed box that knows its owner", async () => {
    // The guarded disk kept its file system.
    expect(sh(['blkid', '-o', 'value', '-s', 'TYPE', guarded]).trim()).to.equal('ext4');
    const root = disks.mount(`${target}p3`, 'root');
    const rootUuid = sh(['blkid', '-o', 'value', '-s', 'UUID', `${target}p3`]).trim();
    expect(readFileSync(path.join(root, 'etc/os-release'), 'utf8')).to.contain('bookworm');
    expect(readFileSync(path.join(root, 'etc/fstab'), 'utf8')).to.contain(`UUID=${rootUuid} / ext4`);
    expect(readFileSync(path.join(root, 'etc/hostname'), 'utf8')).to.equal('wizard-box\n');
    expect(readlinkSync(path.join(root, 'etc/localtime'))).to.equal('../usr/share/zoneinfo/Europe/Vienna');
    // The network the wizard tested.
    const network = readFileSync(path.join(root, 'etc/systemd/network/10-cellar.network'), 'utf8');
    expect(network).to.contain('Name=lan0').and.contain('Address=10.78.0.2/24').and.contain('Gateway=10.78.0.1').and.contain('DNS=10.78.0.1');
    expect(readFileSync(path.join(root, 'boot/grub/grub.cfg'), 'utf8')).to.contain(`root=UUID=${rootUuid}`);
    expect(sh(['mdir', '-b', '-i', `${target}p2`, '::/EFI/BOOT'])).to.contain('BOOTX64.EFI');
    expectBiosLoader(target, `${target}p1`, root);
    expect(existsSync(path.join(root, 'var/lib/cellar/install-id'))).to.equal(true);

    installed = await startTestDaemon({ dataDir: path.join(root, 'var/lib/cellar') });
    expect(await installed.client().api.system.setup()).to.deep.include({ boxName: 'Wizard Box', language: 'de', region: 'AT', setupCode: false });
    const owner = await installed.signIn('owner', password);
    expect(owner.user).to.include({ username: 'owner', admin: true });
    expectOwnerAccount(
      root,
      (await owner.api.users.list()).find((u) => u.username === 'owner')!,
      password,
    );
    await installed.close({ keepData: true });
    installed = undefined;
  });
});
