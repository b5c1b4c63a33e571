/** One error code of the catalog: its HTTP status, an English title, and the params it carries. */
export interface ErrorSpec {
  status: number;
  title: string;
  /** Names of the values `params` carries for this code (documentation and OpenAPI). */
  params?: readonly string[];
  /** Every value `params.reason` takes: the web has a sentence for each (`error.<code>.reason.<value>`), never the raw value. */
  reasons?: readonly string[];
}

/** Keeps the literal keys of an area's catalog while checking each entry's shape. */
export function defineErrors<const T extends Record<string, ErrorSpec>>(entries: T): T {
  return entries;
}
