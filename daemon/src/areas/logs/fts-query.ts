/**
 * Search text to an FTS5 query that user input can never break: every word becomes a quoted
 * phrase of its tokens (FTS5 operators, quotes, parentheses and column filters are plain
 * separators then), with a prefix match on its last token; words are ANDed. The same
 * tokenising matches archived entries in memory, so both halves of a search agree.
 */

import { phraseIn, searchTerms, textTokens } from '../../../../shared/src/api/logs/log-search.ts';

export { searchTerms, textTokens };

/** The MATCH expression, or null when the text holds no word at all (only punctuation). */
export function ftsMatchQuery(terms: readonly string[][]): string | null {
  if (terms.length === 0) return null;
  return terms.map((tokens) => `"${tokens.join(' ').replaceAll('"', '""')}"*`).join(' AND ');
}

/**
 * The in-memory twin of the MATCH expression: every term is in the message or in the fields, or
 * (`byCode`) in the text the entry's message code has in the reader's language.
 */
export function textMatches(terms: readonly string[][], columns: readonly string[], byCode: (term: number) => boolean = () => false): boolean {
  const tokenised = columns.map(textTokens);
  return terms.every((phrase, term) => byCode(term) || tokenised.some((col) => phraseIn(col, phrase)));
}
