import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { secretFile } from '../../core/secret-file.ts';

/** The cookie of a device that signed in before (OWASP's device cookie): only sign-in reads it. */
export const deviceCookieName = 'box.device';
const cookiePath = '/api/auth';
const maxAgeMs = 365 * 24 * 3600_000;

/** The device cookie's value of a request, when it sent one. */
function cookieValue(req: Request): string | null {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === deviceCookieName) return part.slice(eq + 1).trim();
  }
  return null;
}

/**
 * Signed device cookies: `<user name, base64url>.<device id>.<HMAC-SHA256>`. The key lives in a
 * 0600 file of the data directory; without it nobody can make a cookie that names a user.
 */
export class DeviceCookies {
  constructor(
    private readonly key: Buffer,
    private readonly secure: boolean,
  ) {}

  static fromKeyFile(file: string, secure: boolean): DeviceCookies {
    return new DeviceCookies(Buffer.from(secretFile(file, 32), 'base64url'), secure);
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }

  /** The device id when the request carries a valid cookie for this user name (case as the box compares names); null otherwise. */
  deviceOf(req: Request, username: string): string | null {
    const value = cookieValue(req);
    const parts = value?.split('.') ?? [];
    if (parts.length !== 3) return null;
    const [name, device, mac] = parts as [string, string, string];
    const given = Buffer.from(mac, 'base64url');
    const want = this.mac(`${name}.${device}`);
    if (given.length !== want.length || !timingSafeEqual(given, want)) return null;
    return Buffer.from(name, 'base64url').toString('utf8') === username.toLowerCase() ? device : null;
  }

  /** Marks the device as known for this user after a complete sign-in (a device already known keeps its id). */
  remember(req: Request, res: Response, username: string): void {
    const device = this.deviceOf(req, username) ?? randomBytes(16).toString('base64url');
    const name = Buffer.from(username.toLowerCase(), 'utf8').toString('base64url');
    const value = `${name}.${device}.${this.mac(`${name}.${device}`).toString('base64url')}`;
    res.cookie(deviceCookieName, value, { httpOnly: true, sameSite: 'strict', secure: this.secure, path: cookiePath, maxAge: maxAgeMs });
  }
}
