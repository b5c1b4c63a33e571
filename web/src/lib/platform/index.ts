import type { Platform } from '../../../../shared/src/platform.ts';
import { browserPlatform } from './browser.ts';

/** The host this UI runs in. Electron's preload exposes its own as `window.cellarPlatform`. */
export const platform: Platform = (globalThis as { cellarPlatform?: Platform }).cellarPlatform ?? browserPlatform;
