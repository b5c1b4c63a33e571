/**
 * Search text to an FTS5 query that user input can never break: every word becomes a quoted
 * phrase of its tokens (FTS5 operators, quotes, parentheses and column filters are plain
 * separators then), with a prefix match on its last token; words are ANDed. The same
 * tokenising matches archived entries in memory, so both halves of a search agree.
 */

/** Tokens as FTS5's default unicode61 tokenizer sees them: letters and digits, folded, without diacritics. */
export function textTokens(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

/** Each whitespace-separated word of the search as the tokens it must match in a row. */
export function searchTerms(search: string): string[][] {
  return search
    .split(/\s+/)
    .map(textTokens)
    .filter((tokens) => tokens.length > 0);
}

/** The MATCH expression, or null when the text holds no word at all (only punctuation). */
export function ftsMatchQuery(terms: readonly string[][]): string | null {
  if (terms.length === 0) return null;
  return terms.map((tokens) => `"${tokens.join(' ').replaceAll('"', '""')}"*`).join(' AND ');
}

/** Whether one column's text holds the phrase, the last token as a prefix (FTS5 `"a b"*`). */
function columnHas(columnTokens: readonly string[], phrase: readonly string[]): boolean {
  const last = phrase.length - 1;
  for (let start = 0; start + phrase.length <= columnTokens.length; start++) {
    let ok = true;
    for (let k = 0; k <= last && ok; k++) {
      const token = columnTokens[start + k] as string;
      const want = phrase[k] as string;
      ok = k === last ? token.startsWith(want) : token === want;
    }
    if (ok) return true;
  }
  return false;
}

/** The in-memory twin of the MATCH expression: every term is in the message or in the fields. */
export function textMatches(terms: readonly string[][], columns: readonly string[]): boolean {
  const tokenised = columns.map(textTokens);
  return terms.every((phrase) => tokenised.some((col) => columnHas(col, phrase)));
}
