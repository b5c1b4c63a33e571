/**
 * How a log search splits text into words, shared by the box (its full-text index and archived
 * days) and the web (which finds the message codes whose text in the reader's language holds a
 * word, sent as `codeWords`): both must number the words alike.
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

/** Each whitespace-separated word of the search as the tokens it must match in a row; `codeWords` count these from 0. */
export function searchTerms(search: string): string[][] {
  return search
    .split(/\s+/)
    .map(textTokens)
    .filter((tokens) => tokens.length > 0);
}

/** Whether a text's tokens hold the phrase, the last token as a prefix (FTS5 `"a b"*`). */
export function phraseIn(textTokens: readonly string[], phrase: readonly string[]): boolean {
  const last = phrase.length - 1;
  for (let start = 0; start + phrase.length <= textTokens.length; start++) {
    let ok = true;
    for (let k = 0; k <= last && ok; k++) {
      const token = textTokens[start + k] as string;
      const want = phrase[k] as string;
      ok = k === last ? token.startsWith(want) : token === want;
    }
    if (ok) return true;
  }
  return false;
}

/** One `codeWords` entry: search word `index` (of searchTerms) also matches entries with message code `code`. */
export const codeWordPattern = /^(\d{1,2}):([A-Za-z][\w.]{0,99})$/;

/**
 * At most this many `codeWords` entries in one query (a search of single letters finds many codes).
 * They travel as one comma-separated value: the query parser turns more than 20 repeated values into an object.
 */
export const codeWordsMax = 200;
/** The longest `codeWords` value the box takes (200 entries of about 40 characters). */
export const codeWordsChars = 8000;

/** `codeWords` as sent: entries joined by commas. */
export const codeWordsListPattern = /^\d{1,2}:[A-Za-z][\w.]{0,99}(,\d{1,2}:[A-Za-z][\w.]{0,99})*$/;
