import { expect } from 'chai';
import { maxSuffixDepth, maxSuffixLength, parseReceiveCommand, zfsArgs } from './receive-grammar.ts';

describe('replication forced command grammar', () => {
  it('accepts receive and list of a suffix below the parent, and builds the zfs argument arrays', () => {
    const receive = parseReceiveCommand('receive photos/2026', 'tank/replica');
    expect(receive).to.deep.equal({ verb: 'receive', dataset: 'tank/replica/photos/2026' });
    expect(zfsArgs(receive as never)).to.deep.equal(['zfs', 'receive', 'tank/replica/photos/2026']);
    const list = parseReceiveCommand('list a.b_c-d:e', 'tank');
    expect(list).to.deep.equal({ verb: 'list', dataset: 'tank/a.b_c-d:e' });
    expect(zfsArgs(list as never)).to.deep.equal([
      ...['zfs', 'get', '-H', '-p', '-r', '-d', '1', '-o', 'name,property,value', 'guid,createtxg,creation', 'tank/a.b_c-d:e'],
    ]);
  });

  const refused: [string, string | undefined][] = [
    ['no command', undefined],
    ['an empty command', ''],
    ['another command', 'zfs destroy tank'],
    ['a shell', 'bash'],
    ['an unknown verb', 'send x'],
    ['two spaces', 'receive  x'],
    ['a trailing word', 'receive x y'],
    ['a tab', 'receive\tx'],
    ['a newline', 'receive x\nlist y'],
    ['a parent escape', 'receive ../x'],
    ['a dot part', 'receive a/./b'],
    ['a dot-dot part', 'receive a/../../etc'],
    ['an absolute path', 'receive /etc'],
    ['an empty part', 'receive a//b'],
    ['a trailing slash', 'receive a/'],
    ['a snapshot', 'receive x@snap'],
    ['a bookmark', 'list x#mark'],
    ['an option', 'receive -F'],
    ['a semicolon', 'receive x;id'],
    ['a pipe', 'list x|id'],
    ['a command substitution', 'receive $(id)'],
    ['a backtick', 'receive `id`'],
    ['a redirect', 'receive x>/tmp/y'],
    ['a non-ASCII letter', 'receive fotós'],
    ['a too long name', `receive ${'a'.repeat(maxSuffixLength + 1)}`],
    [
      'a too deep name',
      `receive ${Array(maxSuffixDepth + 1)
        .fill('a')
        .join('/')}`,
    ],
  ];
  for (const [what, command] of refused) {
    it(`refuses ${what}`, () => {
      const answer = parseReceiveCommand(command, 'tank/replica');
      expect(answer).to.have.property('refused').that.is.a('string').and.not.empty;
    });
  }

  it('refuses everything when the parent it was given is no dataset name', () => {
    for (const parent of ['', '/tank', 'tank/', 'tank/../x', 'tank@s', '-tank']) {
      expect(parseReceiveCommand('receive x', parent), parent).to.have.property('refused');
    }
  });
});
