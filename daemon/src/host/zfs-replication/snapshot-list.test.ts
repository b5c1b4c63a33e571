import { expect } from 'chai';
import { parseSnapshotGet, snapshotGetArgv } from './snapshot-list.ts';

describe('replication snapshot lists (zfs get -H -p)', () => {
  it('reads each snapshot with its exact guid, txg, creation and holds, leaving the dataset out', () => {
    const text = [
      'tank/a\tguid\t11224403772716814039',
      'tank/a\tcreatetxg\t7',
      'tank/a@s1\tguid\t11232183100644755005',
      'tank/a@s1\tcreatetxg\t19',
      'tank/a@s1\tcreation\t1795918987',
      'tank/a@s1\tuserrefs\t1',
      'tank/a@s2\tguid\t42',
      'tank/a@s2\tcreatetxg\t30',
      'tank/a@s2\tcreation\t1795919000',
      'tank/a@s2\tuserrefs\t-',
      '',
    ].join('\n');
    expect(parseSnapshotGet(text)).to.deep.equal([
      { name: 'tank/a@s1', guid: '11232183100644755005', createtxg: 19, creation: 1795918987, userrefs: 1 },
      { name: 'tank/a@s2', guid: '42', createtxg: 30, creation: 1795919000, userrefs: 0 },
    ]);
  });

  it('asks zfs get for one level below the dataset as an argument array', () => {
    expect(snapshotGetArgv('tank/a', ['guid'])).to.deep.equal(['zfs', 'get', '-H', '-p', '-r', '-d', '1', '-o', 'name,property,value', 'guid', 'tank/a']);
  });
});
