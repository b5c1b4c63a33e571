import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { secretFile } from '../../../core/secret-file.ts';

export const deviceCookieName = 'box.device';
/** Only the sign-in and password requests need it, so no other request carries it. */
export const deviceCookiePath = '/api/auth';
/** How long a device stays known after its last successful sign-in. */
export const deviceCookieMaxAgeMs = 365 * 24 * 60 * 60_000;

const version = 'v1';

/**
 * The device cookie of OWASP's "Slow down online guessing attacks with device cookies": proof that
 * this browser signed in as a user before. `v1.<name>.<nonce>.<issued>.<mac>`, the name base64url of
 * the lower-cased user name, the nonce 16 random bytes, issued in base-36 epoch milliseconds, the mac
 * HMAC-SHA256 over the rest under a key kept in a 0600 file of the data directory. Nothing is stored
 * per device: the nonce names the device's own throttle count.
 */
export class DeviceCookies {
  private constructor(
    private readonly key: Buffer,
    private readonly now: () => number,
  ) {}

  /** The key from `file`, made (32 random bytes, mode 0600) on first use. */
  static fromKeyFile(file: string, now: () => number = Date.now): DeviceCookies {
    return new DeviceCookies(Buffer.from(secretFile(file, 32), 'base64url'), now);
  }

  private mac(body: string): Buffer {
    return createHmac('sha256', this.key).update(body).digest();
  }

  issue(username: string): string {
    const name = Buffer.from(username.toLowerCase()).toString('base64url');
    const body = [version, name, randomBytes(16).toString('base64url'), this.now().toString(36)].join('.');
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  /** The device's nonce when `value` is an untampered, unexpired cookie issued for `username`; null otherwise. */
  deviceOf(value: string | undefined, username: string): string | null {
    const parts = value?.split('.') ?? [];
    if (parts.length !== 5 || parts[0] !== version) return null;
    const [, name, nonce, issued, mac] = parts as [string, string, string, string, string];
    const expected = this.mac(parts.slice(0, 4).join('.'));
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const age = this.now() - parseInt(issued, 36);
    if (!(age >= 0 && age < deviceCookieMaxAgeMs)) return null;
    return Buffer.from(name, 'base64url').toString() === username.toLowerCase() ? nonce : null;
  }
}

/** The device cookie's value from a Cookie header (the app has no cookie parser; express-session reads its own). */
export function deviceCookieIn(header: string | undefined): string | undefined {
  for (const pair of header?.split(';') ?? []) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === deviceCookieName) return pair.slice(eq + 1).trim();
  }
  return undefined;
}
