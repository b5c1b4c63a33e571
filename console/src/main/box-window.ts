import { app, BrowserWindow, session } from 'electron';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { ConsoleService } from '../node/console-service.ts';
import { boxFailureUrl } from '../node/app-pages.ts';
import { chainOf, loadFailure } from '../node/shell-policy.ts';
import { serveConsolePages } from './app-protocol.ts';
import { setOwnOrigin } from './harden.ts';

/** Chromium's answers to a certificate check: 0 accepts, -2 refuses (never -3: the system store plays no part). */
const accepted = 0;
const refused = -2;

const windows = new Map<string, BrowserWindow>();
const partitionOf = (id: string) => `persist:box-${id}`;

/**
 * Opens the box's own web desktop in a window of its own session partition, so cookies and the
 * pinned root stay with that box. Connections accept exactly chains to the pinned root for the
 * box's names (ConsoleService.verifyCertificate); no preload, no Node, nothing of the console.
 * A box that does not answer, or whose certificate is refused, gets the console's own page
 * saying so instead of a blank window.
 */
export async function openBoxWindow(service: ConsoleService, id: string, pagesDir: string): Promise<void> {
  const open = windows.get(id);
  if (open && !open.isDestroyed()) return open.focus();
  const box = service.boxForWindow(id);
  const partition = session.fromPartition(partitionOf(box.id));
  let refusedByPin = false;
  partition.setCertificateVerifyProc((request, callback) => {
    const verdict = service.verifyCertificate(id, request.hostname, chainOf(request.certificate));
    if (!verdict.accept) refusedByPin = true;
    callback(verdict.accept ? accepted : refused);
  });
  // The page about a failure is the console's own, served in the box's session too.
  if (!partition.protocol.isProtocolHandled('app')) serveConsolePages(partition.protocol, pagesDir);
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    title: box.name,
    webPreferences: { session: partition, contextIsolation: true, sandbox: true, nodeIntegration: false },
  });
  windows.set(id, window);
  window.on('closed', () => windows.delete(id));
  setOwnOrigin(window.webContents, new URL(box.url).origin);
  window.webContents.on('did-fail-load', (_event, errorCode, _description, _url, isMainFrame) => {
    const reason = isMainFrame ? loadFailure(errorCode, refusedByPin) : null;
    if (reason) void window.loadURL(boxFailureUrl(reason, box)).catch(() => undefined);
  });
  // A failed load also rejects loadURL; did-fail-load has shown the page about it.
  await window.loadURL(box.url).catch(() => undefined);
}

/** Closes a forgotten box's window and removes its session's cookies, storage and cache from disk. */
export async function removeBoxPartition(id: string): Promise<void> {
  windows.get(id)?.destroy();
  windows.delete(id);
  const partition = session.fromPartition(partitionOf(id));
  await partition.clearStorageData();
  await partition.clearCache();
  await rm(path.join(app.getPath('userData'), 'Partitions', `box-${id}`), { recursive: true, force: true });
}
