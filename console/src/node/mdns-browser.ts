import { Bonjour, type Service } from 'bonjour-service';
import { mdnsServiceTypes as serviceTypes, readMdnsTxt } from '../../../shared/src/mdns.ts';
import type { Announcement, MdnsBrowser } from './discovery.ts';

function announcementOf(service: Service, mode: Announcement['mode']): Announcement {
  // The keys the daemon's announcer writes (shared/src/mdns.ts): one definition for both ends.
  const txt = readMdnsTxt(service.txt);
  // Without a routable address (a box announcing only on loopback) the answer's sender is the box.
  const addresses = service.addresses?.length ? service.addresses : service.referer ? [service.referer.address] : [];
  return {
    key: `${mode}:${service.fqdn ?? service.name}`,
    name: service.name,
    host: service.host.replace(/\.$/, '').toLowerCase(),
    port: service.port,
    addresses,
    mode,
    installId: txt.installId,
    version: txt.version,
    scheme: txt.scheme,
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
