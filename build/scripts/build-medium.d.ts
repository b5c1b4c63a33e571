export const mediumCache: string;
export const livePackages: string[];
export function buildMedium(options?: { deb?: string | null; out?: string | null; log?: (line: string) => void }): Promise<string>;
