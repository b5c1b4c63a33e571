/** Packs an app folder into `<id>-<version>.serviceapp` in `outDir` (default: the folder) and answers its path. */
export function buildAppPackage(folder: string, outDir?: string): Promise<string>;
