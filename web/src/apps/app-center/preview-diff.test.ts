import { expect } from 'chai';
import type { AppPackagePreview } from '../../../../shared/src/api/apps/app-packages.ts';
import { consentPermissions, permissionRows, staysRevoked, storageRows, svgDataUrl, updateNeedsConsent } from './preview-diff.ts';

const request = (storageId: string, access: 'read' | 'readWrite' = 'read', purpose = 'p') => ({ storageId, access, purpose });

function preview(over: Partial<AppPackagePreview>): AppPackagePreview {
  return {
    packageId: '0'.repeat(32),
    manifest: {} as AppPackagePreview['manifest'],
    size: 1,
    unpackedBytes: 1,
    files: 1,
    icon: '<svg/>',
    action: 'update',
    installedVersion: '1.0.0',
    permissions: { added: [], removed: [], kept: [] },
    storage: { added: [], removed: [], changed: [], kept: [] },
    backend: 'none',
    source: null,
    installedSource: null,
    expiresAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

describe('App Center: preview diff', () => {
  it('lists permissions with their change, new ones first', () => {
    const rows = permissionRows(preview({ permissions: { added: ['files'], removed: [], kept: ['notifications'] } }));
    expect(rows).to.deep.equal([
      { permission: 'files', change: 'added' },
      { permission: 'notifications', change: 'kept' },
    ]);
    expect(permissionRows(preview({ permissions: { added: [], removed: ['files'], kept: [] } }))).to.deep.equal([{ permission: 'files', change: 'removed' }]);
  });

  it('shows a changed storage request beside what the installed version asked', () => {
    const old = request('photos', 'read', 'Shows your photos');
    const now = request('photos', 'readWrite', 'Edits your photos');
    const rows = storageRows(preview({ storage: { added: [request('music')], removed: [request('old')], changed: [now], kept: [request('docs')] } }), [old]);
    expect(rows.map((r) => [r.request.storageId, r.change])).to.deep.equal([
      ['music', 'added'],
      ['photos', 'changed'],
      ['old', 'removed'],
      ['docs', 'kept'],
    ]);
    expect(rows[1]!.before).to.deep.equal(old);
    expect(rows[0]!.before).to.equal(null);
  });

  it('asks consent for every permission the new version asks for, not for dropped ones', () => {
    expect(consentPermissions(preview({ permissions: { added: ['files'], removed: ['notifications'], kept: [] } }))).to.deep.equal(['files']);
  });

  it('leaves out of the consent what an administrator revoked, which stays revoked on an update', () => {
    const update = preview({ permissions: { added: ['files'], removed: [], kept: ['notifications'] } });
    expect(consentPermissions(update, ['notifications'])).to.deep.equal(['files']);
    expect(staysRevoked(update, ['notifications'])).to.deep.equal(['notifications']);
    expect(consentPermissions(update)).to.deep.equal(['files', 'notifications']);
    expect(staysRevoked(update, [])).to.deep.equal([]);
  });

  it('makes an icon an image URL that keeps the SVG text whole', () => {
    const url = svgDataUrl('<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>');
    expect(url.startsWith('data:image/svg+xml;charset=utf-8,')).to.equal(true);
    expect(decodeURIComponent(url.split(',')[1]!)).to.contain('<circle r="1"/>');
  });

  it('sends an update to its preview when it asks for more: a permission, storage, a new or other backend, another source', () => {
    const same = { source: 'cellar', installedSource: 'cellar' };
    expect(updateNeedsConsent(preview({ ...same, backend: 'kept', permissions: { added: [], removed: [], kept: ['files'] } }))).to.equal(false);
    expect(updateNeedsConsent(preview({ ...same, backend: 'removed' }))).to.equal(false);
    expect(updateNeedsConsent(preview({ ...same, permissions: { added: ['files'], removed: [], kept: [] } }))).to.equal(true);
    expect(updateNeedsConsent(preview({ ...same, storage: { added: [request('a')], removed: [], changed: [], kept: [] } }))).to.equal(true);
    expect(updateNeedsConsent(preview({ ...same, storage: { added: [], removed: [], changed: [request('a')], kept: [] } }))).to.equal(true);
    expect(updateNeedsConsent(preview({ ...same, backend: 'added' }))).to.equal(true);
    expect(updateNeedsConsent(preview({ ...same, backend: 'changed' }))).to.equal(true);
    expect(updateNeedsConsent(preview({ source: 'custom-2', installedSource: 'cellar' }))).to.equal(true);
    expect(updateNeedsConsent(preview({ source: null, installedSource: 'cellar' }))).to.equal(true);
  });
});
