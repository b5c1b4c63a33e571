/** The Debian packages the box needs; `a | b` takes either. */
export const depends: string[];
/** Builds the package and answers its path. `outDir` defaults to dist/ of the repository. */
export function packageDeb(options?: { outDir?: string }): Promise<string>;
