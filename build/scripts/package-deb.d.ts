/** The Debian packages the box needs; `a | b` takes either. */
export const depends: string[];
/** Builds the package and answers its path. `outDir` defaults to dist/ of the repository; `version` replaces package.json's. */
export function packageDeb(options?: { outDir?: string; version?: string }): Promise<string>;
