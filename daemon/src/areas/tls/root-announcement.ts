import { appendFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import type { Logger } from '../../core/logger.ts';

/** The box's own screen: the kernel's console, where the installed box and the medium show their messages. */
export const boxScreen = '/dev/console';

/**
 * Says the root's SHA-256 fingerprint where the owner can read it off the box itself, away from
 * the network the console fetched the root over: one line on the box's screen (when there is
 * one to write to) and an entry in the journal. The console asks the owner to type it from there
 * before it trusts the root (docs/console.md).
 */
export function announceRoot(logger: Logger, rootPem: string, screen: string | null): string {
  const fingerprint = new X509Certificate(rootPem).fingerprint256;
  logger.info('root certificate fingerprint', { component: 'tls', rootFingerprint: fingerprint });
  if (screen) {
    try {
      appendFileSync(screen, `Cellar: the fingerprint (SHA-256) of this box's root certificate is\r\n  ${fingerprint}\r\n`);
    } catch (err) {
      logger.debug('the box screen could not be written', { component: 'tls', screen, error: String(err) });
    }
  }
  return fingerprint;
}
