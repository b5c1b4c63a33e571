import { isIP } from 'node:net';
import type { InstallerKeyFingerprint } from '../../../../shared/src/api/installer/installer.ts';
import type { ClaimView } from './claim.ts';

export interface ScreenFacts {
  version: string;
  /** The addresses the medium is reached at, with its port. */
  addresses: string[];
  port: number;
  fingerprint: InstallerKeyFingerprint;
  claim: ClaimView;
  /** The claim's limit in minutes, as the owner reads it. */
  claimLimitMinutes: number;
}

const urlOf = (address: string, port: number) => `https://${isIP(address) === 6 ? `[${address}]` : address}:${port}`;

/**
 * What the medium's screen shows, in English and German (the owner picks the language only in the
 * wizard): where to reach it, its key's short fingerprint, and once claimed the claim's code on
 * the same line as the fingerprint, so the owner compares one line with the console's.
 */
export function screenText(f: ScreenFacts): string {
  const lines = [`Cellar installer ${f.version}`, ''];
  lines.push('Open the Cellar console and install this box at / Öffnen Sie die Cellar-Konsole und installieren Sie diese Box unter:');
  if (f.addresses.length === 0) lines.push('  (no network address yet / noch keine Netzwerkadresse)');
  for (const address of f.addresses) lines.push(`  ${urlOf(address, f.port)}`);
  lines.push('', `Key / Schlüssel: ${f.fingerprint.short}`, `  SHA-256 ${f.fingerprint.sha256}`, '');
  if (f.claim.code !== null) {
    const until = new Date(f.claim.endsAt ?? 0).toISOString().slice(11, 16);
    lines.push(`Claimed / Übernommen: code ${f.claim.code} · key ${f.fingerprint.short}`);
    lines.push('  The console must show exactly this line. / Die Konsole muss genau diese Zeile zeigen.');
    lines.push(`  The claim ends at ${until} UTC at the latest. / Die Übernahme endet spätestens um ${until} UTC.`);
  } else if (f.claim.limitReached) {
    lines.push(`The claim reached its ${f.claimLimitMinutes}-minute limit: claim this box again in the console.`);
    lines.push(`Die Übernahme hat ihre Grenze von ${f.claimLimitMinutes} Minuten erreicht: übernehmen Sie die Box in der Konsole erneut.`);
  } else {
    lines.push('Waiting for a console. / Wartet auf eine Konsole.');
  }
  return `${lines.join('\n')}\n`;
}
