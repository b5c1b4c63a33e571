import { Bonjour, type Service } from 'bonjour-service';
import type { Announcement, MdnsBrowser } from './discovery.ts';

/** The two service types a box announces (issue 17): installed, and waiting for installation. */
export const serviceTypes = { installed: 'cellar', installer: 'cellar-installer' } as const;

function announcementOf(service: Service, mode: Announcement['mode']): Announcement {
  const txt = (service.txt ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof txt[key] === 'string' && txt[key] !== '' ? (txt[key] as string) : null);
  // Without a routable address (a box announcing only on loopback) the answer's sender is the box.
  const addresses = service.addresses?.length ? service.addresses : service.referer ? [service.referer.address] : [];
  return {
    key: `${mode}:${service.fqdn ?? service.name}`,
    name: service.name,
    host: service.host.replace(/\.$/, '').toLowerCase(),
    port: service.port,
    addresses,
    mode,
    installId: text('installId'),
    version: text('version'),
    scheme: text('scheme') === 'http' ? 'http' : 'https',
  };
}

/** Browses both service types with bonjour-service; the one place the console touches mDNS. */
export function bonjourBrowser(): MdnsBrowser {
  return {
    start(onUp, onDown) {
      const bonjour = new Bonjour();
      const browsers = (Object.keys(serviceTypes) as Announcement['mode'][]).map((mode) => {
        const browser = bonjour.find({ type: serviceTypes[mode] });
        browser.on('up', (service) => onUp(announcementOf(service, mode)));
        browser.on('down', (service) => onDown(announcementOf(service, mode).key));
        return browser;
      });
      return () => {
        for (const browser of browsers) browser.stop();
        bonjour.destroy();
      };
    },
  };
}
