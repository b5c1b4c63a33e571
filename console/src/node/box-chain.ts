import { X509Certificate } from 'node:crypto';
import { connect, type DetailedPeerCertificate } from 'node:tls';
import { ConsoleError } from './console-error.ts';

/**
 * The chain a box presents at an HTTPS origin, leaf first, in PEM: what Electron hands the
 * certificate check, here for the main process's own checks (an announced new address). Not
 * verified here: checkPinned (pin-check.ts) decides.
 */
export function presentedChain(origin: string, timeoutMs = 5000): Promise<string[]> {
  const url = new URL(origin);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port: Number(url.port || 443), rejectUnauthorized: false, timeout: timeoutMs }, () => {
      const chain: string[] = [];
      for (let c: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true); c?.raw && chain.length < 8; c = c.issuerCertificate) {
        chain.push(new X509Certificate(c.raw).toString());
        if (c.issuerCertificate === c) break;
      }
      socket.end();
      resolve(chain);
    });
    const fail = () => {
      socket.destroy();
      reject(new ConsoleError('console.box.unreachable', { url: origin }));
    };
    socket.on('timeout', fail);
    socket.on('error', fail);
  });
}
