import { BrowserWindow, session, type Certificate } from 'electron';
import type { ConsoleService } from '../node/console-service.ts';
import { hardenContents } from './harden.ts';

/** Chromium's answers to a certificate check: 0 accepts, -2 refuses (never -3: the system store plays no part). */
const accepted = 0;
const refused = -2;

function chainOf(certificate: Certificate): string[] {
  const chain: string[] = [];
  for (let link: Certificate | undefined = certificate; link && chain.length < 8; link = link.issuerCert) chain.push(link.data);
  return chain;
}

const windows = new Map<string, BrowserWindow>();

/**
 * Opens the box's own web desktop in a window of its own session partition, so cookies and the
 * pinned root stay with that box. Connections accept exactly chains to the pinned root for the
 * box's names (ConsoleService.verifyCertificate); no preload, no Node, nothing of the console.
 */
export async function openBoxWindow(service: ConsoleService, id: string): Promise<void> {
  const open = windows.get(id);
  if (open && !open.isDestroyed()) return open.focus();
  const box = service.boxForWindow(id);
  const partition = session.fromPartition(`persist:box-${box.id}`);
  partition.setCertificateVerifyProc((request, callback) => {
    const verdict = service.verifyCertificate(id, request.hostname, chainOf(request.certificate));
    callback(verdict.accept ? accepted : refused);
  });
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    title: box.name,
    webPreferences: { session: partition, contextIsolation: true, sandbox: true, nodeIntegration: false },
  });
  windows.set(id, window);
  window.on('closed', () => windows.delete(id));
  hardenContents(window.webContents, new URL(box.url));
  await window.loadURL(box.url);
}
