import { expect } from 'chai';
import { desktopUrl, parseAppPath, parseDesktopUrl, restoreWindows, type SavedWindow } from './url-state.ts';

describe('window URLs', () => {
  const files = { appId: 'org.service.files', route: '3/Photos/2024 summer' };
  const logs = { appId: 'org.service.logs', route: '' };
  const settings = { appId: 'org.service.settings', route: 'appearance' };

  it('puts the focused window in the path and the others, bottom first, in w parameters', () => {
    const url = desktopUrl([logs, files, settings], files);
    expect(url).to.equal('/app/org.service.files/3/Photos/2024%20summer?w=org.service.logs&w=org.service.settings%2Fappearance');
    const [path, search] = url.split('?');
    expect(parseDesktopUrl(path ?? '', `?${search}`)).to.deep.equal([logs, settings, files]);
  });

  it('keeps every window in the query when all are minimised, and answers / without windows', () => {
    expect(desktopUrl([logs], null)).to.equal('/?w=org.service.logs');
    expect(desktopUrl([], null)).to.equal('/');
    expect(parseDesktopUrl('/', '?w=org.service.logs')).to.deep.equal([logs]);
  });

  it('reads /app and /apps links and refuses what is no app id', () => {
    expect(parseAppPath('/apps/org.service.logs/request/abc')).to.deep.equal({ appId: 'org.service.logs', route: 'request/abc' });
    expect(parseAppPath('/app/org.service.files/')).to.deep.equal({ appId: 'org.service.files', route: '' });
    expect(parseAppPath('/app/Not An App/x')).to.equal(null);
    expect(parseAppPath('/settings')).to.equal(null);
    expect(parseDesktopUrl('/', '?w=..%2Fetc&w=javascript:alert(1)')).to.deep.equal([]);
    // A broken escape keeps the text rather than throwing away the window.
    expect(parseAppPath('/app/org.service.files/100%')).to.deep.equal({ appId: 'org.service.files', route: '100%' });
  });

  it('pairs windows with their saved places in order, two windows of one app included', () => {
    const a: SavedWindow = { ...logs, rect: { x: 1, y: 1, width: 300, height: 200 }, mode: 'normal', minimised: false };
    const b: SavedWindow = { ...logs, rect: { x: 50, y: 50, width: 300, height: 200 }, mode: 'left', minimised: true };
    expect(restoreWindows([logs, logs, files], [a, b])).to.deep.equal([a, b, files]);
  });
});
