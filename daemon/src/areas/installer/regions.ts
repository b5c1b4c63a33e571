/**
 * Two-letter codes ICU names that are not assigned ISO 3166-1 countries: reserved and transitional
 * codes (old names of today's countries), groupings and test regions.
 */
const notCountries = new Set([
  'AC',
  'AN',
  'BU',
  'CP',
  'CQ',
  'CS',
  'DD',
  'DG',
  'EA',
  'EU',
  'EZ',
  'FX',
  'IC',
  'QO',
  'SU',
  'TA',
  'TP',
  'UN',
  'XA',
  'XB',
  'XK',
  'YD',
  'YU',
  'ZR',
  'ZZ',
]);

let cached: string[] | null = null;

/** ISO 3166-1 alpha-2 codes, as the runtime's ICU knows them (the same names the web desktop shows). */
export function regionCodes(): string[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const codes: string[] = [];
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (!notCountries.has(code) && names.of(code) !== undefined) codes.push(code);
    }
  cached = codes;
  return codes;
}
