import { expect } from 'chai';
import { planSend, type SnapshotRef } from './send-plan.ts';

const src = (snap: string, guid: string, createtxg: number): SnapshotRef => ({
  name: `tank/data@${snap}`,
  guid,
  createtxg,
});
const dst = (snap: string, guid: string, createtxg: number): SnapshotRef => ({
  name: `backup/data@${snap}`,
  guid,
  createtxg,
});

describe('planSend', () => {
  it('refuses when the source has no snapshot', () => {
    expect(planSend([], [])).to.deep.equal({ kind: 'refused', code: 'no-source-snapshot' });
  });

  it('sends the newest source snapshot in full to an empty target, by createtxg not list order', () => {
    const plan = planSend([src('b', '2', 20), src('c', '3', 30), src('a', '1', 10)], []);
    expect(plan).to.deep.equal({ kind: 'full', snapshot: 'tank/data@c' });
  });

  it('sends incrementally from the newest snapshot both sides hold', () => {
    const source = [src('a', '1', 10), src('b', '2', 20), src('c', '3', 30)];
    const target = [dst('a', '1', 5), dst('b', '2', 6)];
    expect(planSend(source, target)).to.deep.equal({
      kind: 'incremental',
      base: 'tank/data@b',
      snapshot: 'tank/data@c',
    });
  });

  it('matches by guid: a same-named snapshot with another guid is not a base', () => {
    const source = [src('a', '1', 10), src('b', '2', 20), src('c', '3', 30)];
    const target = [dst('a', '1', 5), dst('b', '99', 6)];
    expect(planSend(source, target)).to.deep.equal({
      kind: 'incremental',
      base: 'tank/data@a',
      snapshot: 'tank/data@c',
    });
  });

  it('matches by guid across renamed snapshots', () => {
    const source = [src('a', '1', 10), src('renamed', '2', 20), src('c', '3', 30)];
    const target = [dst('b', '2', 6)];
    expect(planSend(source, target)).to.include({ kind: 'incremental', base: 'tank/data@renamed' });
  });

  it('ignores target snapshots the source no longer has', () => {
    const source = [src('b', '2', 20), src('c', '3', 30)];
    const target = [dst('a', '1', 5), dst('b', '2', 6), dst('x', '77', 7)];
    expect(planSend(source, target)).to.include({ kind: 'incremental', base: 'tank/data@b' });
  });

  it('answers up-to-date when the target already holds the newest source snapshot', () => {
    const source = [src('a', '1', 10), src('b', '2', 20)];
    expect(planSend(source, [dst('b', '2', 6)])).to.deep.equal({ kind: 'up-to-date', snapshot: 'tank/data@b' });
  });

  it('refuses with no-common-snapshot when the target has only unrelated snapshots (no destructive full send)', () => {
    const source = [src('a', '1', 10), src('b', '2', 20)];
    const target = [dst('a', '10', 5), dst('b', '20', 6)];
    expect(planSend(source, target)).to.deep.equal({ kind: 'refused', code: 'no-common-snapshot' });
  });
});
