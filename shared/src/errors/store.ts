import { defineErrors } from './catalog-entry.ts';

/** Codes of the Store (spec 4.11): catalogs, their fetches and their packages. */
export const storeErrors = defineErrors({
  'store.catalog.not_found': { status: 404, title: 'There is no such catalog', params: ['catalog', 'key'] },
  'store.catalog.built_in': { status: 409, title: 'A project catalog cannot be removed, only switched off', params: ['key'] },
  'store.catalog.exists': { status: 409, title: 'This catalog has been added already', params: ['url'] },
  'store.catalog.url_refused': {
    status: 400,
    title: 'Catalogs are fetched over https:// or SSH (git@host:owner/repository.git, ssh://[user@]host[:port]/path)',
    params: ['url'],
  },
  'store.catalog.not_fetched': { status: 409, title: 'The catalog has no verified copy yet', params: ['catalog'] },
  'store.app.not_found': { status: 404, title: 'The catalog has no such app', params: ['catalog', 'appId'] },
  'store.version.not_found': { status: 404, title: 'The catalog has no such version of the app', params: ['appId', 'version'] },
  'store.image.not_found': { status: 404, title: 'The index lists no such image for this version', params: ['name'] },
  'store.package.hash_mismatch': { status: 422, title: 'The package or an image does not match the hash of the index', params: ['path'] },
  'store.package.download_failed': { status: 502, title: 'The package could not be downloaded from its address', params: ['status'] },
  // The failures of a fetch: the job's error and the catalog's last error; the last verified copy stays.
  'store.fetch.failed': {
    status: 502,
    title: 'The catalog could not be fetched',
    params: ['reason'],
    reasons: ['timeout', 'cancelled', 'exit', 'tooLarge', 'error'],
  },
  'store.fetch.too_large': { status: 507, title: 'The catalog’s repository is larger than a catalog may be', params: ['limit'] },
  'store.fetch.host_key_changed': {
    status: 502,
    title: 'The catalog server’s SSH host key differs from the one pinned on the first fetch',
    params: ['pinned'],
  },
  'store.index.invalid': { status: 422, title: 'The catalog’s index is missing or not valid', params: ['errors'] },
  'store.signature.invalid': {
    status: 422,
    title: 'The catalog’s signature is missing or does not hold',
    params: ['reason'],
    reasons: ['missing', 'malformed', 'unknown_key', 'invalid'],
  },
  'store.file.hash_mismatch': { status: 422, title: 'A file of the catalog does not match the hash of its index', params: ['path'] },
});
