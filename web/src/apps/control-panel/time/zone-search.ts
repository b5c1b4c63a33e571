/**
 * The zones matching what was typed: every word of the query (`new york`, `berl`) inside the zone's
 * name, spaces matching underscores; zones whose city starts with the query come first.
 */
export function matchZones(zones: readonly string[], query: string): string[] {
  const words = query.trim().toLowerCase().replace(/_/g, ' ').split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...zones];
  const plain = (zone: string) => zone.toLowerCase().replace(/_/g, ' ');
  const found = zones.filter((zone) => words.every((w) => plain(zone).includes(w)));
  const city = (zone: string) => plain(zone.slice(zone.lastIndexOf('/') + 1));
  const first = words.join(' ');
  return [...found.filter((z) => city(z).startsWith(first)), ...found.filter((z) => !city(z).startsWith(first))];
}
