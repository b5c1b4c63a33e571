import { Bonjour } from 'bonjour-service';
import type { Logger } from '../../core/logger.ts';

export interface Announcement {
  /** `cellar` for an installed box, `cellar-installer` for the installation medium. */
  type: 'cellar' | 'cellar-installer';
  name: string;
  port: number;
  txt: Record<string, string>;
}

/** Announces the daemon by mDNS (DNS-SD) so the console finds boxes without typing addresses. */
export class MdnsAnnouncer {
  private bonjour: Bonjour | null = null;

  constructor(private readonly logger: Logger) {}

  start(a: Announcement): void {
    // On every interface: the console may sit on any of the box's networks.
    this.bonjour = new Bonjour({}, (err: unknown) => this.logger.warn('mdns failed', { component: 'installer', error: String(err) }));
    this.bonjour.publish({ name: a.name, type: a.type, protocol: 'tcp', port: a.port, txt: a.txt, disableIPv6: true });
    this.logger.info('announced by mdns', { component: 'installer', type: `_${a.type}._tcp`, name: a.name, port: a.port });
  }

  async stop(): Promise<void> {
    const bonjour = this.bonjour;
    if (!bonjour) return;
    this.bonjour = null;
    await new Promise<void>((resolve) => bonjour.unpublishAll(() => resolve()));
    await new Promise<void>((resolve) => bonjour.destroy(() => resolve()));
  }
}
