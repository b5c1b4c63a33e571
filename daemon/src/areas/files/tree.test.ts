import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freeName, linkLeadsInside, treeBytes } from './tree.ts';
import { daemonFs } from '../../host/share-fs/daemon-fs.ts';

describe('file operation trees', () => {
  let dir: string;
  let root: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'cellar-tree-')));
    root = path.join(dir, 'share');
    mkdirSync(path.join(root, 'docs', 'sub'), { recursive: true });
    writeFileSync(path.join(root, 'docs', 'a.txt'), 'abc');
    writeFileSync(path.join(root, 'docs', 'sub', 'b.txt'), 'defg');
    writeFileSync(path.join(dir, 'outside.txt'), 'secret');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('numbers free names before the extension of files and after the name of folders', async () => {
    const docs = path.join(root, 'docs');
    expect(await freeName(daemonFs, docs, 'a.txt', false)).to.equal('a (2).txt');
    writeFileSync(path.join(docs, 'a (2).txt'), '');
    expect(await freeName(daemonFs, docs, 'a.txt', false)).to.equal('a (3).txt');
    expect(await freeName(daemonFs, root, 'docs', true)).to.equal('docs (2)');
    expect(await freeName(daemonFs, root, 'archive.tar.gz', false)).to.equal('archive.tar (2).gz');
    expect(await freeName(daemonFs, root, '.env', false)).to.equal('.env (2)');
  });

  it('counts the bytes of files only, never following links and never counting reserved entries', async () => {
    symlinkSync(path.join(dir, 'outside.txt'), path.join(root, 'docs', 'link'));
    writeFileSync(path.join(root, 'docs', '.cellar-upload-abc'), 'in progress');
    expect(await treeBytes(daemonFs, path.join(root, 'docs'))).to.equal(7);
  });

  it('tells links that stay inside the share from links that lead out', async () => {
    const docs = path.join(root, 'docs');
    expect(await linkLeadsInside(docs, 'a.txt', root)).to.equal(true);
    expect(await linkLeadsInside(docs, 'sub/../a.txt', root)).to.equal(true);
    expect(await linkLeadsInside(docs, '../docs/sub/b.txt', root)).to.equal(true);
    expect(await linkLeadsInside(docs, 'not-yet/there.txt', root)).to.equal(true);
    expect(await linkLeadsInside(docs, '../../outside.txt', root)).to.equal(false);
    expect(await linkLeadsInside(docs, path.join(dir, 'outside.txt'), root)).to.equal(false);
    expect(await linkLeadsInside(docs, 'missing/../../../outside.txt', root)).to.equal(false);
    // A folder link leading out makes everything below it outside, whatever the name says.
    symlinkSync(dir, path.join(docs, 'up'));
    expect(await linkLeadsInside(docs, 'up/share/docs/a.txt', root)).to.equal(true);
    expect(await linkLeadsInside(docs, 'up/outside.txt', root)).to.equal(false);
  });
});
