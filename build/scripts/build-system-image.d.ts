export const boxPackages: string[];
export function buildSystemImage(options: { out: string; suite?: string; variant?: string; packages?: string[]; deb?: string | null }): string;
