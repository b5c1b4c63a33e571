import type { Sharp, SharpOptions } from 'sharp';

type SharpFactory = (input?: Buffer | string, options?: SharpOptions) => Sharp;

let loading: Promise<SharpFactory> | undefined;

/**
 * sharp (libvips) for rendering thumbnails and wallpapers, loaded on first use rather than with
 * every daemon start: most starts never render. The package is imported here, not the modules
 * that use it, so each module of ours exists once however the process was loaded.
 *
 * libvips caches operations by their arguments, file names included. Sources are read through
 * /proc/self/fd/<n>, whose names are reused for other files once closed, so a cached load could
 * hand back another file's pixels: the cache stays off.
 */
export function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loading;
}
