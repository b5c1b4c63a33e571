import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answerPageRequest, boxFailurePage, boxFailureUrl } from './app-pages.ts';
import { allowPermission, chainOf, isConsoleFrame, linkAction, loadFailure, originOf, sameOrigin } from './shell-policy.ts';

describe('console shell rules (plain modules behind the Electron glue)', () => {
  it('compares origins by scheme, host and port; the console is app://console only', () => {
    expect(sameOrigin('https://box:7484', 'https://box:7484/files?x#y')).to.equal(true);
    expect(sameOrigin('https://box:7484', 'https://box:7485/')).to.equal(false);
    expect(sameOrigin('https://box:7484', 'http://box:7484/')).to.equal(false);
    expect(sameOrigin('https://box:7484', 'https://box.evil:7484/')).to.equal(false);
    expect(sameOrigin('app://console', 'app://console/index.html#backup')).to.equal(true);
    expect(sameOrigin('app://console', 'app://other/index.html')).to.equal(false);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x', 'not a url']) expect(originOf(url), url).to.equal(null);
    expect(sameOrigin('file:///a', 'file:///a')).to.equal(false);
  });

  it('answers IPC from the console page only', () => {
    expect(isConsoleFrame('app://console/index.html')).to.equal(true);
    for (const url of ['file:///opt/Cellar/resources/app.asar/dist/renderer/index.html', 'https://box:7484/', 'app://evil/', '', null, undefined])
      expect(isConsoleFrame(url), String(url)).to.equal(false);
  });

  it('keeps links on the own origin, hands http(s) to the browser, drops the rest', () => {
    expect(linkAction('https://box:7484', 'https://box:7484/app')).to.equal('allow');
    expect(linkAction('https://box:7484', 'https://example.org/')).to.equal('external');
    expect(linkAction('https://box:7484', 'HTTP://example.org/')).to.equal('external');
    expect(linkAction('https://box:7484', 'file:///etc/passwd')).to.equal('deny');
    expect(linkAction('https://box:7484', 'smb://box/share')).to.equal('deny');
  });

  it('allows a box page to write the clipboard for its own origin and nothing else', () => {
    const box = 'https://box:7484';
    expect(allowPermission({ permission: 'clipboard-sanitized-write', requestingUrl: `${box}/desktop`, contentsOrigin: box })).to.equal(true);
    expect(allowPermission({ permission: 'clipboard-sanitized-write', requestingUrl: 'https://other:7484/', contentsOrigin: box })).to.equal(false);
    expect(allowPermission({ permission: 'clipboard-sanitized-write', requestingUrl: `${box}/`, contentsOrigin: null })).to.equal(false);
    expect(allowPermission({ permission: 'clipboard-sanitized-write', requestingUrl: 'app://console/', contentsOrigin: 'app://console' })).to.equal(false);
    for (const permission of ['clipboard-read', 'notifications', 'media', 'geolocation', 'openExternal'])
      expect(allowPermission({ permission, requestingUrl: `${box}/`, contentsOrigin: box }), permission).to.equal(false);
  });

  it("walks Electron's certificate links leaf first, stopping at a self-issued root and at 8 links", () => {
    expect(chainOf({ data: 'leaf', issuerCert: { data: 'mid', issuerCert: { data: 'root', issuerCert: { data: 'root' } } } })).to.deep.equal([
      'leaf',
      'mid',
      'root',
    ]);
    type Link = { data: string; issuerCert?: Link };
    const loop: Link = { data: 'a' };
    loop.issuerCert = { data: 'b', issuerCert: loop };
    expect(chainOf(loop)).to.have.length(8);
  });

  it('tells a refused certificate from an unreachable box, and ignores aborted loads', () => {
    expect(loadFailure(-3, false)).to.equal(null);
    expect(loadFailure(-102, false)).to.equal('unreachable');
    expect(loadFailure(-2, true)).to.equal('certificate');
    expect(loadFailure(-202, false)).to.equal('certificate');
  });

  it('serves only files of the pages folder, and the failure page escaped, in German for a German system', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cellar-app-pages-'));
    try {
      mkdirSync(path.join(dir, 'renderer', 'assets'), { recursive: true });
      writeFileSync(path.join(dir, 'renderer', 'assets', 'main.js'), 'x');
      writeFileSync(path.join(dir, 'renderer', 'notes.txt'), 'x');
      const pages = path.join(dir, 'renderer');
      expect((await answerPageRequest(pages, 'app://console/assets/main.js', 'en')).headers['Content-Type']).to.equal('text/javascript; charset=utf-8');
      expect((await answerPageRequest(pages, 'app://console/notes.txt', 'en')).status).to.equal(404);
      expect((await answerPageRequest(pages, 'app://console/%2e%2e/assets/main.js', 'en')).status).to.equal(200);
      expect((await answerPageRequest(pages, 'app://console/assets%2f..%2f..%2f..%2fetc%2fpasswd', 'en')).status).to.equal(404);
      const url = boxFailureUrl('unreachable', { name: '<b>x</b>', url: 'https://box:7484' });
      const german = await answerPageRequest(pages, url, 'de-DE');
      expect(german.body).to.include('Die Box antwortet nicht').and.include('&#60;b&#62;x&#60;/b&#62;');
      expect(boxFailurePage({ reason: 'certificate', name: 'a"b', url: 'u', language: 'fr' }))
        .to.include('The box was refused')
        .and.include('a&#34;b');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
