import { expect } from 'chai';
import type { LogEntry } from '../../../../shared/src/api/logs/logs.ts';
import { defaultFilters, entryMatches, isLive, requestIdOfRoute, routeOfRequest, timeRange, toQuery, type LogFilters } from './log-query.ts';

const now = Date.UTC(2026, 10, 22, 12, 0, 0);
const filters = (f: Partial<LogFilters>): LogFilters => ({ ...defaultFilters(), ...f });
const entry = (e: Partial<LogEntry>): LogEntry => ({
  id: 1,
  time: new Date(now - 60_000).toISOString(),
  level: 'info',
  source: 'daemon',
  message: 'share created',
  fields: {},
  requestId: null,
  userId: null,
  code: null,
  params: {},
  ...e,
});

describe('logs app: filters to queries', () => {
  it('turns a preset into a range that ends now', () => {
    expect(timeRange(filters({ preset: '1h' }), now)).to.deep.equal({ from: now - 3_600_000, to: now });
    expect(toQuery(filters({ preset: '15m' }), now, 'en')).to.deep.equal({ from: new Date(now - 900_000).toISOString(), to: new Date(now).toISOString() });
  });

  it('uses the custom times as given and leaves an empty side open', () => {
    const custom = filters({ preset: 'custom', customFrom: '2026-11-01T08:30', customTo: '' });
    expect(timeRange(custom, now)).to.deep.equal({ from: new Date('2026-11-01T08:30').getTime(), to: null });
    expect(toQuery(custom, now, 'en')).to.not.have.property('to');
    expect(isLive(custom)).to.equal(true);
    expect(isLive(filters({ preset: 'custom', customTo: '2026-11-02T00:00' }))).to.equal(false);
  });

  it("reads the custom times in the box's time zone, not the browser's", () => {
    const custom = filters({ preset: 'custom', customFrom: '2026-11-01T08:30', customTo: '2026-11-01T09:00' });
    expect(toQuery(custom, now, 'en', 'Asia/Tokyo')).to.include({ from: '2026-10-31T23:30:00.000Z', to: '2026-11-01T00:00:00.000Z' });
  });

  it('sends levels, sources and the trimmed search only when set', () => {
    const q = toQuery(filters({ levels: ['warn', 'error'], sources: ['daemon'], search: '  disk full ' }), now, 'en');
    expect(q.level).to.deep.equal(['warn', 'error']);
    expect(q.source).to.deep.equal(['daemon']);
    expect(q.search).to.equal('disk full');
    expect(toQuery(filters({ search: '   ' }), now, 'en')).to.not.have.property('search');
  });
});

describe('logs app: live entries against the filters', () => {
  it('keeps entries of the chosen levels, sources and range', () => {
    expect(entryMatches(entry({}), filters({}), now, 'en')).to.equal(true);
    expect(entryMatches(entry({ level: 'debug' }), filters({ levels: ['warn', 'error'] }), now, 'en')).to.equal(false);
    expect(entryMatches(entry({ source: 'app/x' }), filters({ sources: ['daemon'] }), now, 'en')).to.equal(false);
    expect(entryMatches(entry({ time: new Date(now - 2 * 3_600_000).toISOString() }), filters({ preset: '1h' }), now, 'en')).to.equal(false);
  });

  it('matches search words as prefixes in message or fields, and an exact request id', () => {
    expect(entryMatches(entry({ message: 'Share Created' }), filters({ search: 'shar creat' }), now, 'en')).to.equal(true);
    expect(entryMatches(entry({ fields: { path: '/srv/Photos' } }), filters({ search: 'photos' }), now, 'en')).to.equal(true);
    expect(entryMatches(entry({}), filters({ search: 'deleted' }), now, 'en')).to.equal(false);
    expect(entryMatches(entry({ message: 'x', requestId: 'req-12345678' }), filters({ search: 'req-12345678' }), now, 'en')).to.equal(true);
  });

  it("matches the words a coded entry shows in the reader's language, as the box's search with codeWords", () => {
    const signedIn = entry({ message: 'signed in', code: 'auth.signedIn', params: { username: 'anna', how: 'password' }, fields: { username: 'anna' } });
    expect(entryMatches(signedIn, filters({ search: 'anna angemeldet' }), now, 'de')).to.equal(true);
    expect(entryMatches(signedIn, filters({ search: 'anna signed' }), now, 'de')).to.equal(true);
    expect(entryMatches(signedIn, filters({ search: 'angemeldet' }), now, 'en')).to.equal(false);
    // The query carries the codes of each word for the box.
    expect(toQuery(filters({ search: 'anna angemeldet' }), now, 'de').codeWords?.split(',')).to.include('1:auth.signedIn');
    expect(toQuery(filters({ search: 'zzzz' }), now, 'de')).to.not.have.property('codeWords');
  });
});

describe('logs app: request routes and sizes', () => {
  it('reads and writes request/<id> routes, refusing ids of another shape', () => {
    expect(routeOfRequest('abc-1234-5678')).to.equal('request/abc-1234-5678');
    expect(requestIdOfRoute('request/abc-1234-5678')).to.equal('abc-1234-5678');
    expect(requestIdOfRoute('request/<script>')).to.equal(null);
    expect(requestIdOfRoute('')).to.equal(null);
  });
});
