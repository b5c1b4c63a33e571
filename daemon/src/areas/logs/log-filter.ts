import { codeWordPattern, codeWordsMax } from '../../../../shared/src/api/logs/log-search.ts';
import { requestIdPattern, type LogFilterQuery, type LogLevel } from '../../../../shared/src/api/logs/logs.ts';
import { ftsMatchQuery, searchTerms, textMatches } from './fts-query.ts';
import type { LogCursor } from './log-cursor.ts';
import type { LogRow } from './logs.model.ts';
import type { SqlValue } from './log-db.ts';

/** A validated query in the store's terms: times in epoch milliseconds, search split into terms. */
export interface LogFilter {
  from: number | null;
  to: number | null;
  levels: readonly LogLevel[] | null;
  sources: readonly string[] | null;
  /** `codes[i]`: message codes whose text in the reader's language holds term i (the web finds them). */
  search: { terms: string[][]; codes: string[][]; requestId: string | null } | null;
}

/** `codeWords` (`<term>:<code>,…`) as the codes of each term; a term past the search's words is ignored. */
function codesOfTerms(terms: readonly string[][], codeWords: string | undefined): string[][] {
  const codes = terms.map((): string[] => []);
  for (const entry of codeWords?.split(',').slice(0, codeWordsMax) ?? []) {
    const [, term, code] = codeWordPattern.exec(entry) ?? [];
    if (term !== undefined && code !== undefined) codes[Number(term)]?.push(code);
  }
  return codes;
}

export function toFilter(query: LogFilterQuery): LogFilter {
  const search = query.search?.trim();
  return {
    from: query.from ? Date.parse(query.from) : null,
    to: query.to ? Date.parse(query.to) : null,
    levels: query.level?.length ? query.level : null,
    sources: query.source?.length ? query.source : null,
    // A single word shaped like a request id finds that request's entries as well as the text.
    search: search
      ? { terms: searchTerms(search), codes: codesOfTerms(searchTerms(search), query.codeWords), requestId: requestIdPattern.test(search) ? search : null }
      : null,
  };
}

/** WHERE clause (over log_entries aliased e) and its parameters for a filter and an optional cursor. */
export function filterSql(filter: LogFilter, cursor: LogCursor | null): { where: string; params: SqlValue[] } {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  if (filter.from !== null) {
    parts.push('e.time >= ?');
    params.push(filter.from);
  }
  if (filter.to !== null) {
    parts.push('e.time <= ?');
    params.push(filter.to);
  }
  if (filter.levels) {
    parts.push(`e.level IN (${filter.levels.map(() => '?').join(', ')})`);
    params.push(...filter.levels);
  }
  if (filter.sources) {
    parts.push(`e.source IN (${filter.sources.map(() => '?').join(', ')})`);
    params.push(...filter.sources);
  }
  if (cursor) {
    // The leading `time <= ?` gives the planner a range on the time index; with the OR alone it
    // scans from the newest entry on every page, which made a long export quadratic.
    parts.push('e.time <= ? AND (e.time < ? OR e.id < ?)');
    params.push(cursor.time, cursor.time, cursor.id);
  }
  if (filter.search) {
    const alternatives: string[] = [];
    const { terms, codes } = filter.search;
    if (codes.some((c) => c.length > 0)) {
      // Word by word: in the text, or the word of a code's text in the reader's language.
      const words = terms.map((term, i) => {
        const ofCode = codes[i] ?? [];
        params.push(ftsMatchQuery([term]) as string, ...ofCode);
        const byCode = ofCode.length ? ` OR e.code IN (${ofCode.map(() => '?').join(', ')})` : '';
        return `(e.id IN (SELECT rowid FROM log_fts WHERE log_fts MATCH ?)${byCode})`;
      });
      alternatives.push(`(${words.join(' AND ')})`);
    } else {
      const match = ftsMatchQuery(terms);
      if (match) {
        alternatives.push('e.id IN (SELECT rowid FROM log_fts WHERE log_fts MATCH ?)');
        params.push(match);
      }
    }
    if (filter.search.requestId) {
      alternatives.push('e.request_id = ?');
      params.push(filter.search.requestId);
    }
    parts.push(alternatives.length ? `(${alternatives.join(' OR ')})` : '0');
  }
  return { where: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** The same filter over a row in memory (archived entries). */
export function rowMatches(filter: LogFilter, row: LogRow, cursor: LogCursor | null): boolean {
  if (filter.from !== null && row.time < filter.from) return false;
  if (filter.to !== null && row.time > filter.to) return false;
  if (filter.levels && !filter.levels.includes(row.level)) return false;
  if (filter.sources && !filter.sources.includes(row.source)) return false;
  if (cursor && !(row.time < cursor.time || (row.time === cursor.time && row.id < cursor.id))) return false;
  if (filter.search) {
    const { terms, codes, requestId } = filter.search;
    const byId = requestId !== null && row.request_id === requestId;
    const byText = terms.length > 0 && textMatches(terms, [row.message, row.fields], (term) => row.code !== null && (codes[term] ?? []).includes(row.code));
    if (!byId && !byText) return false;
  }
  return true;
}

/** Newest first: time, then id, both descending. */
export function newestFirst(a: LogRow, b: LogRow): number {
  return b.time - a.time || b.id - a.id;
}
