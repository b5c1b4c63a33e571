/** Where the daemon reads the time, so tests can move it (retention, expiry) without waiting. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function isoAt(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
