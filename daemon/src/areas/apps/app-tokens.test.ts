import { expect } from 'chai';
import { ProblemError } from '../../core/problem-error.ts';
import { AppTokens } from './app-tokens.ts';

// The HTTP side (issue, windows, sign-out, expiry) is in test/api/app-tokens.test.ts; here the bounds of the map.
describe('app tokens in memory', () => {
  let now: number;
  const clock = { now: () => now };
  const claims = (sessionId: string, instanceId: string, userId = 1, kind: 'host' | 'backend' = 'host') => ({
    kind,
    userId,
    sessionId,
    appId: 'org.example.hello',
    instanceId,
  });
  const refused = (fn: () => unknown) => {
    expect(fn).to.throw(ProblemError).with.property('code', 'app.token.limit');
  };

  beforeEach(() => {
    now = Date.UTC(2026, 10, 28, 12);
  });

  it("makes room in a window only among that window's own tokens: another window of the session keeps its token", () => {
    const tokens = new AppTokens(clock, { perWindow: 3 });
    const kept = tokens.issue(claims('s1', 'window-a')).token;
    const backend = tokens.issue(claims('s1', 'window-b', 1, 'backend')).token;
    const asked = Array.from({ length: 600 }, () => tokens.issue(claims('s1', 'window-b')).token);
    expect(tokens.find(kept, 'host', 'window-a')).to.include({ sessionId: 's1', instanceId: 'window-a' });
    // The window's other kind is another set: the host tokens' churn leaves the backend token alone.
    expect(tokens.find(backend, 'backend', 'window-b')).to.not.equal(null);
    // The window itself holds its newest three.
    expect(asked.map((t) => tokens.find(t, 'host', 'window-b') !== null).lastIndexOf(false)).to.equal(asked.length - 4);
  });

  it('refuses a user at their limit across sessions and windows, without taking a token of theirs or of anyone else', () => {
    const tokens = new AppTokens(clock, { perUser: 5 });
    const mine = Array.from({ length: 5 }, (_, i) => tokens.issue(claims(`s${i % 2}`, `window-${i}`)).token);
    refused(() => tokens.issue(claims('s9', 'window-new')));
    for (const [i, t] of mine.entries()) expect(tokens.find(t, 'host', `window-${i}`), t).to.not.equal(null);
    // Another user is not counted with them.
    expect(tokens.issue(claims('s2', 'window-0', 2)).token).to.be.a('string');
    // Once a window of theirs closes, they may ask again.
    tokens.endWindow('s0', 'org.example.hello', 'window-0');
    expect(tokens.issue(claims('s9', 'window-new')).token).to.be.a('string');
  });

  it('refuses everyone at the limit of the box until tokens expire; expired ones go first', () => {
    const tokens = new AppTokens(clock, { total: 5 });
    for (let user = 1; user <= 4; user++) tokens.issue(claims(`s${user}`, 'window-0', user));
    now += 4 * 60_000;
    const fresh = tokens.issue(claims('s1', 'window-1', 1));
    refused(() => tokens.issue(claims('s5', 'window-0', 5)));
    // After 5 minutes the first four have expired: the box has room again, and the newer token still holds.
    now += 60_000;
    expect(tokens.issue(claims('s5', 'window-0', 5)).token).to.be.a('string');
    expect(tokens.find(fresh.token, 'host', 'window-1')).to.not.equal(null);
    for (let i = 0; i < 3; i++) tokens.issue(claims('s6', `window-${i}`, 6));
    refused(() => tokens.issue(claims('s7', 'window-0', 7)));
  });

  it('counts a user again from zero once their tokens end with the session', () => {
    const tokens = new AppTokens(clock, { perUser: 2 });
    tokens.issue(claims('s1', 'window-0'));
    tokens.issue(claims('s1', 'window-1'));
    refused(() => tokens.issue(claims('s2', 'window-0')));
    tokens.endSession('s1');
    tokens.issue(claims('s2', 'window-0'));
    tokens.issue(claims('s2', 'window-1'));
    refused(() => tokens.issue(claims('s2', 'window-2')));
  });
});
