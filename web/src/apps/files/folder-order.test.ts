import { expect } from 'chai';
import type { FileEntry } from '../../../../shared/src/api/files/files.ts';
import { entryComparator, insertionIndex } from './folder-order.ts';
import { numberedName } from './uploads-names.ts';

const entry = (name: string, size = 0, modified = '2026-01-01T00:00:00.000Z', type: FileEntry['type'] = 'file'): FileEntry => ({
  name,
  path: name,
  type,
  size,
  modified,
  link: null,
});

describe('files app order', () => {
  it('sorts names naturally ignoring case, as the daemon does', () => {
    const names = ['file10', 'File2', 'file1', 'alpha', 'Beta'].map((n) => entry(n));
    expect(names.sort(entryComparator('name', 'asc')).map((e) => e.name)).to.deep.equal(['alpha', 'Beta', 'file1', 'File2', 'file10']);
    expect(names.sort(entryComparator('name', 'desc')).map((e) => e.name)).to.deep.equal(['file10', 'File2', 'file1', 'Beta', 'alpha']);
  });

  it('sorts by size (folders as 0) and by time, ties by name', () => {
    const list = [entry('b', 5), entry('a', 5), entry('dir', 4096, undefined, 'folder'), entry('c', 1)];
    expect(list.sort(entryComparator('size', 'asc')).map((e) => e.name)).to.deep.equal(['dir', 'c', 'a', 'b']);
    const times = [entry('old', 0, '2020-01-01T00:00:00Z'), entry('new', 0, '2026-01-01T00:00:00Z')];
    expect(times.sort(entryComparator('modified', 'desc')).map((e) => e.name)).to.deep.equal(['new', 'old']);
  });

  it('finds where a live entry belongs with a binary search', () => {
    const compare = entryComparator('name', 'asc');
    const list = ['a', 'c', 'e'].map((n) => entry(n));
    expect(insertionIndex(list, entry('b'), compare)).to.equal(1);
    expect(insertionIndex(list, entry('f'), compare)).to.equal(3);
    expect(insertionIndex([], entry('x'), compare)).to.equal(0);
  });

  it('numbers a kept-both upload before its extension', () => {
    expect(numberedName('photo.jpg', 2)).to.equal('photo (2).jpg');
    expect(numberedName('README', 3)).to.equal('README (3)');
    expect(numberedName('.env', 2)).to.equal('.env (2)');
  });
});
