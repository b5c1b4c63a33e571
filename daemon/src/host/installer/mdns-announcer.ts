import { Bonjour } from 'bonjour-service';
import type { Logger } from '../../core/logger.ts';

export interface Announcement {
  /** `cellar` for an installed box, `cellar-installer` for the installation medium. */
  type: 'cellar' | 'cellar-installer';
  name: string;
  port: number;
  txt: Record<string, string>;
}

export interface MdnsOptions {
  /** The address of the one interface to announce on (tests: 127.0.0.1); every interface when absent. */
  interface?: string;
}

/** Announces the daemon by mDNS (DNS-SD) so the console finds boxes without typing addresses. */
export class MdnsAnnouncer {
  private bonjour: Bonjour | null = null;

  constructor(
    private readonly options: MdnsOptions,
    private readonly logger: Logger,
  ) {}

  start(a: Announcement): void {
    // multicast-dns takes the interface among its options; bonjour-service's type names only the service's.
    const opts = (this.options.interface ? { interface: this.options.interface } : {}) as Record<string, string>;
    this.bonjour = new Bonjour(opts, (err: unknown) => this.logger.warn('mdns failed', { component: 'installer', error: String(err) }));
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
