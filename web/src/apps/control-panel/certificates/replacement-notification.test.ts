import { expect } from 'chai';
import { replacementNotification } from '../../../../../daemon/src/areas/tls/tls.area.ts';
import { notificationText } from '../../../desktop/tray/notification-text.ts';

describe('notification: the box replaced an authority of the old kind', () => {
  const fingerprint = 'AA:BB:CC';
  const sent = replacementNotification({ replacedAt: '2026-11-28T10:00:00.000Z', previousRootFingerprint: fingerprint });

  it('is a warning that names the old root and leads to the Certificates section', () => {
    expect(sent).to.deep.include({ code: 'tls.authority.replaced', level: 'warning', link: '/app/org.service.control-panel/certificates' });
    expect(sent.body).to.include(fingerprint);
  });

  it('reads in the user language, with the old root in it', () => {
    const notification = { code: sent.code ?? null, params: sent.params ?? null, title: sent.title, body: sent.body ?? '' };
    const german = notificationText('de', notification);
    expect(german.title).to.equal('Der Box auf jedem Gerät neu vertrauen');
    expect(german.body).to.include(fingerprint).and.include('Stammzertifikat');
    expect(notificationText('en', notification).body).to.include(fingerprint).and.include('Remove the old root');
  });
});
