export const boxPackages: string[];
export function aptCacheOptions(cacheDir: string): string[];
export function runMmdebstrap(args: string[], options?: { timeoutMs?: number }): void;
export function buildSystemImage(options: {
  out: string;
  suite?: string;
  variant?: string;
  packages?: string[];
  deb?: string | null;
  cacheDir?: string | null;
  hooks?: string[];
}): string;
