import type { Platform } from '../../../../shared/src/platform.ts';

/** The browser's host: new tabs for outside addresses, an object URL for downloads. */
export const browserPlatform = {
  name: 'browser',
  async openExternal(url: string) {
    const parsed = new URL(url, window.location.href);
    // Only web addresses leave the desktop; javascript: or file: URLs never open from here.
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`refusing to open ${parsed.protocol} addresses`);
    window.open(parsed.href, '_blank', 'noopener,noreferrer');
  },
  async download(data: Blob, fileName: string) {
    const href = URL.createObjectURL(data);
    const link = document.createElement('a');
    link.href = href;
    link.download = fileName;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    // The click has started the download; give it a moment before freeing the data.
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  },
} as const satisfies Platform;
