import { expect } from 'chai';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { aclAt, heldFolderPath, holderPlan } from './folder-holders.ts';

describe('folder holders (apps’ storage mappings in the share ACL)', () => {
  const users = [{ username: 'uma', access: 'readWrite' as const }];

  it('gives a holder its folder and what lies below, never the rest of the share', () => {
    const share = { users, folders: [{ username: 'app40000', path: 'media/photos', access: 'read' as const }] };
    expect(aclAt(share, 'media/photos/2026/a.jpg').access).to.equal('u::rwX,g::---,o::---,u:app40000:rX,u:uma:rwX,m::rwX');
    expect(aclAt(share, 'media/photos').defaults).to.equal('u::rwx,g::---,o::---,u:app40000:r-x,u:uma:rwx,m::rwx');
    expect(aclAt(share, 'media/photos-old').access).to.not.include('app40000');
    expect(aclAt(share, 'media').access).to.not.include('app40000');
  });

  it('plans trees shallow first and search only on the folders above', () => {
    const plan = holderPlan({
      users,
      folders: [
        { username: 'app40001', path: 'a/b/c', access: 'readWrite' },
        { username: 'app40000', path: 'a', access: 'read' },
        { username: 'app40000', path: 'a/b/c', access: 'readWrite' },
      ],
    });
    expect(plan.trees.map((t) => t.path)).to.deep.equal(['a', 'a/b/c']);
    // Nested mappings of one app: the strongest access, once.
    expect(plan.trees[1]?.acl.access).to.equal('u::rwX,g::---,o::---,u:app40000:rwX,u:app40001:rwX,u:uma:rwX,m::rwX');
    // app40000 holds `a` and what is below it anyway: only app40001 needs passage through a and a/b.
    expect(plan.passages).to.deep.equal([
      { path: '', entries: 'u:app40000:--x,u:app40001:--x' },
      { path: 'a', entries: 'u:app40001:--x' },
      { path: 'a/b', entries: 'u:app40001:--x' },
    ]);
  });

  it('finds a held folder by descriptors, and refuses a link on the way', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'cellar-holders-')));
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'cellar-holders-out-')));
    try {
      mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
      symlinkSync(outside, path.join(root, 'link'));
      expect(await heldFolderPath(root, 'a/b')).to.equal(path.join(root, 'a', 'b'));
      expect(await heldFolderPath(root, '')).to.equal(root);
      expect(await heldFolderPath(root, 'link')).to.equal(null);
      expect(await heldFolderPath(root, 'missing')).to.equal(null);
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
