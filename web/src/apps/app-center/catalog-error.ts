import type { CatalogInfo } from '../../../../shared/src/api/store/store.ts';
import { errorCatalog, isErrorCode } from '../../../../shared/src/errors/index.ts';
import { i18n, t } from '../../lib/i18n/i18n.svelte.ts';
import { problemMessage } from '../../lib/i18n/messages.ts';
import { formatDate } from '../../lib/dates.ts';

/** How a catalog's failed fetch reads: what happened, what to check, and whether a copy is still in use. */
export interface CatalogErrorText {
  /** What happened, in the reader's language; never the tool's own words. */
  message: string;
  /** The copy in use meanwhile, or that there is none. */
  copy: string;
  /** git's or ssh's words, shown folded for support. */
  detail: string;
}

/** A server the box could not reach at all, or that never answered: the owner checks the box's connection. */
const offline = new Set(['unreachable', 'timeout']);

export function catalogErrorText(c: CatalogInfo): CatalogErrorText | null {
  const error = c.lastError;
  if (!error) return null;
  const message =
    error.code === 'store.fetch.failed' && offline.has(String(error.params.reason))
      ? t('appCenter.catalogs.unreachable', { host: hostOf(c.url) })
      : isErrorCode(error.code)
        ? problemMessage(i18n.language, {
            type: 'about:blank',
            title: errorCatalog[error.code].title,
            status: 0,
            detail: '',
            code: error.code,
            params: error.params,
            requestId: '',
          })
        : t('error.store.fetch.failed');
  const copy = c.verifiedAt ? t('appCenter.catalogs.copyKept', { at: formatDate(c.verifiedAt) }) : t('appCenter.catalogs.noCopy');
  return { message: t('appCenter.catalogs.lastError', { at: formatDate(error.at), reason: message }), copy, detail: error.detail };
}

/** The server's name in a catalog address (https://host/…, git@host:…, ssh://user@host:port/…). */
function hostOf(url: string): string {
  const match = /^(?:[a-z]+:\/\/)?(?:[^@/]+@)?([^:/]+)/.exec(url);
  return match?.[1] ?? url;
}
