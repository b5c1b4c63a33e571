import type { ConsoleBridge } from '../bridge.ts';

/** The preload's bridge (or the browser tests' stand-in); the pages reach the main process only through it. */
export const bridge = (window as unknown as { cellarConsole: ConsoleBridge }).cellarConsole;
