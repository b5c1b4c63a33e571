import { expect } from 'chai';
import { crumbs, formatRoute, joinPath, parentOf, parseRoute } from './route.ts';

describe('files app route', () => {
  it('round-trips share and path (empty segments dropped)', () => {
    const route = { view: 'folder', shareId: 7, path: 'Photos/2024 #1/a%b' } as const;
    const text = formatRoute(route);
    expect(text).to.equal('7/Photos/2024 #1/a%b');
    expect(parseRoute('7//Photos/')).to.deep.equal({ view: 'folder', shareId: 7, path: 'Photos' });
    expect(parseRoute(text)).to.deep.equal(route);
    expect(parseRoute('7')).to.deep.equal({ view: 'folder', shareId: 7, path: '' });
    expect(parseRoute('7/')).to.deep.equal({ view: 'folder', shareId: 7, path: '' });
  });

  it('knows the recycle bin and nothing else', () => {
    expect(parseRoute('trash/3')).to.deep.equal({ view: 'trash', shareId: 3 });
    expect(formatRoute({ view: 'trash', shareId: 3 })).to.equal('trash/3');
    for (const bad of ['', 'x/1', '0', '-1', 'trash', 'trash/x']) expect(parseRoute(bad), bad).to.deep.equal({ view: 'none' });
  });

  it('splits paths into parents and breadcrumbs', () => {
    expect(parentOf('a/b/c')).to.equal('a/b');
    expect(parentOf('a')).to.equal('');
    expect(joinPath('', 'x')).to.equal('x');
    expect(joinPath('a', 'x')).to.equal('a/x');
    expect(crumbs('a/b')).to.deep.equal([
      { name: 'a', path: 'a' },
      { name: 'b', path: 'a/b' },
    ]);
  });
});
