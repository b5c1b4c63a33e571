import { expect } from 'chai';
import { appIdPattern, coreApps, coreAppsFor, findCoreApp, mayOpenCoreApp, type CoreApp } from './apps.ts';

describe('core app registry', () => {
  it('has the six core apps under org.service.* with titles in en and de', () => {
    expect(coreApps.map((a) => a.id)).to.deep.equal([
      'org.service.files',
      'org.service.control-panel',
      'org.service.storage-manager',
      'org.service.logs',
      'org.service.app-center',
      'org.service.overview',
    ]);
    for (const app of coreApps) {
      expect(app.id).to.match(appIdPattern);
      expect(app.title.en).to.be.a('string').that.is.not.empty;
      expect(app.title.de).to.be.a('string').that.is.not.empty;
    }
    expect(findCoreApp('org.service.logs')?.right).to.equal('admin');
    expect(findCoreApp('com.example.logs')).to.equal(undefined);
  });

  it('lets administrators open everything, users the `user` apps and those whose special right they hold', () => {
    const special: CoreApp = {
      id: 'org.service.backup',
      icon: 'archive',
      title: { en: 'Backup', de: 'Sicherung' },
      right: 'backup',
      defaultWindow: { width: 800, height: 600 },
    };
    const user = { admin: false, rights: new Set<string>() };
    expect(coreAppsFor(user).map((a) => a.id)).to.deep.equal(['org.service.files']);
    expect(coreAppsFor({ admin: true, rights: new Set() })).to.have.length(coreApps.length);
    expect(mayOpenCoreApp(special, user)).to.equal(false);
    expect(mayOpenCoreApp(special, { admin: false, rights: new Set(['backup']) })).to.equal(true);
    // `admin` is not a grantable right: only the administrator flag opens those apps.
    expect(mayOpenCoreApp(findCoreApp('org.service.logs')!, { admin: false, rights: new Set(['admin']) })).to.equal(false);
  });
});
