import { expect } from 'chai';
import { planTargetRetention, type TargetSnapshot } from './target-retention.ts';

const now = 1_000_000;
const day = 86_400;
const snap = (n: number, ageDays: number): TargetSnapshot => ({
  name: `backup/data@s${n}`,
  guid: `g${n}`,
  createtxg: n,
  creation: now - ageDays * day,
});
// s5 is the newest; ages 0..4 days.
const target = [snap(1, 4), snap(2, 3), snap(3, 2), snap(4, 1), snap(5, 0)];

describe('planTargetRetention', () => {
  it('destroys nothing without a rule', () => {
    expect(planTargetRetention(target, {}, 'g5', now)).to.deep.equal([]);
  });

  it('keeps the N newest', () => {
    expect(planTargetRetention(target, { keepNewest: 2 }, 'g5', now)).to.deep.equal(['backup/data@s3', 'backup/data@s2', 'backup/data@s1']);
  });

  it('keeps by age', () => {
    expect(planTargetRetention(target, { keepWithinSeconds: 2.5 * day }, 'g5', now)).to.deep.equal(['backup/data@s2', 'backup/data@s1']);
  });

  it('keeps what either rule keeps', () => {
    expect(planTargetRetention(target, { keepNewest: 1, keepWithinSeconds: 1.5 * day }, 'g5', now)).to.deep.equal([
      'backup/data@s3',
      'backup/data@s2',
      'backup/data@s1',
    ]);
  });

  it('never destroys the newest common base even when the rules would', () => {
    const plan = planTargetRetention(target, { keepNewest: 1 }, 'g2', now);
    expect(plan).to.not.include('backup/data@s2');
    expect(plan).to.deep.equal(['backup/data@s4', 'backup/data@s3', 'backup/data@s1']);
  });

  it('keeps N newest by createtxg, not by list order', () => {
    const shuffled = [snap(5, 0), snap(1, 4), snap(3, 2), snap(2, 3), snap(4, 1)];
    expect(planTargetRetention(shuffled, { keepNewest: 4 }, null, now)).to.deep.equal(['backup/data@s1']);
  });
});
