import { expect } from 'chai';
import { notificationText } from './notification-text.ts';

describe('notification text', () => {
  const update = {
    code: 'store.update.available',
    params: { appId: 'org.example.clock', version: '1.1.0', installedVersion: '1.0.0' },
    title: 'org.example.clock 1.1.0 is available',
    body: 'Installed: 1.0.0.',
  };

  it('translates a coded notification with its params in the user language', () => {
    expect(notificationText('en', update)).to.deep.equal({
      title: 'org.example.clock 1.1.0 is available',
      body: 'Installed: 1.0.0. Update it from the Store.',
    });
    expect(notificationText('de', update)).to.deep.equal({
      title: 'org.example.clock 1.1.0 ist verfügbar',
      body: 'Installiert: 1.0.0. Aktualisieren Sie es im Store.',
    });
    expect(notificationText('de', { ...update, code: 'store.update.needs_consent' }).body).to.contain('neue Berechtigungen');
  });

  it('keeps the text it came with without a code, for a code it does not know, or when a param is missing', () => {
    const plain = { code: null, params: null, title: 'Backup done', body: 'All good' };
    expect(notificationText('de', plain)).to.deep.equal({ title: 'Backup done', body: 'All good' });
    expect(notificationText('de', { ...update, code: 'store.update.from_the_future' })).to.deep.equal({ title: update.title, body: update.body });
    expect(notificationText('de', { ...update, params: { appId: 'org.example.clock' } })).to.deep.equal({ title: update.title, body: update.body });
  });
});
