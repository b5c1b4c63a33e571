import { expect } from 'chai';
import { nextTaskRun } from './tasks-schedule.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('nextTaskRun', () => {
  it('has no time of its own for a task that follows the snapshot schedules', () => {
    expect(nextTaskRun({ kind: 'afterSnapshots' }, at('2026-11-29T10:15:00Z'), 'Europe/Berlin')).to.equal(null);
  });

  it('runs at the start of the next hour, day, week (Monday) and month of the box zone', () => {
    const from = at('2026-11-29T10:15:00Z'); // a Sunday, 11:15 in Berlin
    expect(iso(nextTaskRun({ kind: 'every', period: 'hourly' }, from, 'Europe/Berlin'))).to.equal('2026-11-29T11:00:00.000Z');
    expect(iso(nextTaskRun({ kind: 'every', period: 'daily' }, from, 'Europe/Berlin'))).to.equal('2026-11-29T23:00:00.000Z');
    expect(iso(nextTaskRun({ kind: 'every', period: 'weekly' }, from, 'Europe/Berlin'))).to.equal('2026-11-29T23:00:00.000Z');
    expect(iso(nextTaskRun({ kind: 'every', period: 'monthly' }, from, 'Europe/Berlin'))).to.equal('2026-11-30T23:00:00.000Z');
    expect(iso(nextTaskRun({ kind: 'every', period: 'weekly' }, at('2026-11-30T10:00:00Z'), 'UTC'))).to.equal('2026-12-07T00:00:00.000Z');
  });

  it('answers the next period, never the current one, when asked at its very start', () => {
    expect(iso(nextTaskRun({ kind: 'every', period: 'daily' }, at('2026-11-30T00:00:00Z'), 'UTC'))).to.equal('2026-12-01T00:00:00.000Z');
    expect(iso(nextTaskRun({ kind: 'every', period: 'monthly' }, at('2026-12-01T00:00:00Z'), 'UTC'))).to.equal('2027-01-01T00:00:00.000Z');
  });

  it('keeps midnight on the wall clock across a change of the clocks (23- and 25-hour days)', () => {
    // Berlin springs forward on 2026-03-29 and falls back on 2026-10-25.
    expect(iso(nextTaskRun({ kind: 'every', period: 'daily' }, at('2026-03-28T23:30:00Z'), 'Europe/Berlin'))).to.equal('2026-03-29T22:00:00.000Z');
    expect(iso(nextTaskRun({ kind: 'every', period: 'daily' }, at('2026-10-24T22:30:00Z'), 'Europe/Berlin'))).to.equal('2026-10-25T23:00:00.000Z');
    expect(iso(nextTaskRun({ kind: 'every', period: 'monthly' }, at('2026-02-15T12:00:00Z'), 'Europe/Berlin'))).to.equal('2026-02-28T23:00:00.000Z');
  });
});
