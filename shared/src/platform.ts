/**
 * What the UI needs from its host. The browser (web/src/lib/platform) and the Electron
 * preload each implement it with `satisfies Platform`, so Svelte code never imports electron.
 * Runs in both hosts: no node:, DOM-only or electron imports here.
 */
export interface Platform {
  /** Which host runs the UI. */
  name: 'browser' | 'electron';
  /** Opens an address outside the desktop (help pages, a share's web address). */
  openExternal(url: string): Promise<void>;
  /** Hands a file to the user: the browser's download, or Electron's save dialog. */
  download(data: Blob, fileName: string): Promise<void>;
}
