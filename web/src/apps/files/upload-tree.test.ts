import { expect } from 'chai';
import { placeIn, treeFromRelativePaths, walkEntries, type TreeEntry } from './upload-tree.ts';

/** A fake file: its content stands for the File the browser would hand out. */
const file = (name: string, fail = false): TreeEntry<string> => ({
  name,
  isFile: true,
  isDirectory: false,
  file: (ok, bad) => setTimeout(() => (fail ? bad?.(new Error('unreadable')) : ok(`content of ${name}`))),
});

/** A fake folder whose reader answers in batches of `batch` entries, then an empty batch, as Chrome's does. */
function folder(name: string, children: TreeEntry<string>[], batch = 2, calls: { count: number } = { count: 0 }): TreeEntry<string> {
  return {
    name,
    isFile: false,
    isDirectory: true,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok) => {
          calls.count++;
          const next = children.slice(at, at + batch);
          at += next.length;
          setTimeout(() => ok(next));
        },
      };
    },
  };
}

const special = (name: string): TreeEntry<string> => ({ name, isFile: false, isDirectory: false });

describe('files app: folder upload trees', () => {
  it('walks dropped folders depth first, reading every batch of a folder until an empty one', async () => {
    const calls = { count: 0 };
    const many = Array.from({ length: 5 }, (_, i) => file(`f${i}.txt`));
    const tree = await walkEntries([folder('Photos', [file('a.jpg'), folder('2024', many, 2, calls), folder('empty', [])]), file('loose.txt')]);
    // 5 entries in batches of 2: three full or partial batches and the empty one that ends it.
    expect(calls.count).to.equal(4);
    expect(tree.folders).to.deep.equal(['Photos', 'Photos/2024', 'Photos/empty']);
    expect(tree.files).to.deep.equal([
      { dir: 'Photos', file: 'content of a.jpg' },
      ...many.map((_, i) => ({ dir: 'Photos/2024', file: `content of f${i}.txt` })),
      { dir: '', file: 'content of loose.txt' },
    ]);
    expect(tree.skipped).to.equal(0);
  });

  it('skips entries that are neither files nor folders, and unreadable ones, and goes on', async () => {
    const unreadable: TreeEntry<string> = {
      name: 'locked',
      isFile: false,
      isDirectory: true,
      createReader: () => ({ readEntries: (_ok, bad) => bad?.(new Error('denied')) }),
    };
    const tree = await walkEntries([folder('Docs', [special('link'), file('gone.txt', true), unreadable, file('kept.txt')], 100)]);
    expect(tree.folders).to.deep.equal(['Docs']);
    expect(tree.files).to.deep.equal([{ dir: 'Docs', file: 'content of kept.txt' }]);
    expect(tree.skipped).to.equal(3);
  });

  it('builds the tree of a folder picked with webkitdirectory from the relative paths, parents first', () => {
    const picked = [
      { name: 'a.txt', webkitRelativePath: 'Tree/a.txt' },
      { name: 'c.txt', webkitRelativePath: 'Tree/sub/deeper/c.txt' },
      { name: 'b.txt', webkitRelativePath: 'Tree/sub/b.txt' },
      { name: 'plain.txt', webkitRelativePath: '' },
    ];
    const tree = treeFromRelativePaths(picked);
    expect(tree.folders).to.deep.equal(['Tree', 'Tree/sub', 'Tree/sub/deeper']);
    expect(tree.files.map((f) => [f.dir, f.file.name])).to.deep.equal([
      ['Tree', 'a.txt'],
      ['Tree/sub/deeper', 'c.txt'],
      ['Tree/sub', 'b.txt'],
      ['', 'plain.txt'],
    ]);
  });

  it('places tree folders and loose files below the folder they were dropped into', () => {
    expect(placeIn('', 'Photos/2024')).to.equal('Photos/2024');
    expect(placeIn('Work/Inbox', 'Photos')).to.equal('Work/Inbox/Photos');
    // A loose file of a drop goes into the folder itself, not "Work/Inbox/".
    expect(placeIn('Work/Inbox', '')).to.equal('Work/Inbox');
    expect(placeIn('', '')).to.equal('');
  });
});
