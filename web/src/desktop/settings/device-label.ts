/**
 * A short description of a device from the browser that last saved its layout, such as
 * "Firefox on Windows", so people can tell their devices apart. Pure, unit-tested.
 */
const browsers: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const systems: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

const first = (list: [RegExp, string][], text: string) => list.find(([pattern]) => pattern.test(text))?.[1] ?? null;

/** Browser and system, or either alone; null when the agent names neither (or is unknown). */
export function describeAgent(userAgent: string | null): { browser: string | null; system: string | null } | null {
  if (!userAgent) return null;
  const browser = first(browsers, userAgent);
  const system = first(systems, userAgent);
  return browser || system ? { browser, system } : null;
}
