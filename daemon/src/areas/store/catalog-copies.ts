import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import type { CatalogIndex } from '../../../../shared/src/api/store/catalog-index.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TrustedKey } from '../../core/signed-index.ts';
import { cloneBranch, pinnedHostKey, type SshIdentity } from '../../host/git/git-client.ts';
import { GitFailure } from '../../host/git/git-process.ts';
import { indexFile, parseIndex, verifyCopy } from './catalog-verify.ts';

export interface FetchTarget {
  key: number;
  url: string;
  branch: string;
  /** Project catalogs are checked against the trusted keys; custom ones are not signed. */
  signed: boolean;
}

export interface VerifiedCopy {
  root: string;
  index: CatalogIndex;
  commit: string;
  branch: string;
}

/** A fetched catalog copy (shallow repository and checkout) may take this much disk at most. */
export const defaultMaxCatalogBytes = 2 * 1024 * 1024 * 1024;

/** What git (curl) and ssh say when no connection to the server could be made at all. */
const unreachable =
  /Could not resolve host|Could not resolve hostname|Failed to connect to|Couldn't connect to server|Connection refused|Connection timed out|Network is unreachable|No route to host|Temporary failure in name resolution/;

export const isSshUrl = (url: string) => !/^https?:\/\//.test(url);

/**
 * The verified copies of the catalogs under `<data dir>/store/catalogs/<key>/`: `current` is a link
 * to the copy in use. A fetch clones into a new folder beside it and swaps the link only after the
 * copy is verified, so a failed or tampered fetch leaves the last verified copy in use.
 */
export class CatalogCopies {
  private readonly verified = new Map<number, VerifiedCopy>();
  private readonly running = new Map<number, Promise<VerifiedCopy>>();

  constructor(
    private readonly deps: {
      root: string;
      keys: readonly TrustedKey[];
      logger: Logger;
      timeoutMs: number;
      /** The most bytes a fetched copy may take on disk (repository and checkout). */
      maxBytes: number;
      /** A CA file git trusts for https catalogs instead of the system's (tests). */
      caFile?: string;
    },
  ) {}

  private folder(key: number): string {
    return path.join(this.deps.root, String(key));
  }

  ssh(key: number): SshIdentity {
    return { folder: path.join(this.folder(key), 'ssh') };
  }

  get(key: number): VerifiedCopy | null {
    return this.verified.get(key) ?? null;
  }

  /** Reads the copy in use after a restart: it was verified before it became current. */
  async load(key: number, branch: string | null, commit: string | null): Promise<void> {
    const link = path.join(this.folder(key), 'current');
    const target = await readlink(link).catch(() => null);
    if (!target || !branch || !commit) return;
    const root = path.join(this.folder(key), target);
    try {
      const index = parseIndex(await readFile(path.join(root, indexFile)));
      this.verified.set(key, { root, index, commit, branch });
    } catch (err) {
      this.deps.logger.warn('store catalog copy unreadable', { component: 'store', key, error: String(err) });
    }
  }

  /** Fetches and verifies; a fetch of the same catalog already under way is joined, not repeated. */
  fetch(target: FetchTarget, signal?: AbortSignal): Promise<VerifiedCopy> {
    const running = this.running.get(target.key);
    if (running) return running;
    const work = this.fetchOnce(target, signal).finally(() => this.running.delete(target.key));
    this.running.set(target.key, work);
    return work;
  }

  private async fetchOnce(target: FetchTarget, signal?: AbortSignal): Promise<VerifiedCopy> {
    const folder = this.folder(target.key);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const name = `copy-${Date.now()}-${randomBytes(4).toString('hex')}`;
    const root = path.join(folder, name);
    const home = path.join(folder, 'home');
    await mkdir(home, { recursive: true, mode: 0o700 });
    try {
      const commit = await cloneBranch({
        url: target.url,
        branch: target.branch,
        dest: root,
        home,
        ssh: isSshUrl(target.url) ? this.ssh(target.key) : null,
        timeoutMs: this.deps.timeoutMs,
        maxBytes: this.deps.maxBytes,
        caFile: this.deps.caFile,
        signal,
      }).catch(async (err: unknown) => {
        if (!(err instanceof GitFailure)) throw err;
        if (err.reason === 'tooLarge')
          throw new ProblemError(
            'store.fetch.too_large',
            { limit: this.deps.maxBytes },
            { detail: `The catalog's repository is larger than ${this.deps.maxBytes} bytes` },
          );
        // ssh refuses a server whose key differs from the pinned one (StrictHostKeyChecking accept-new): its own words say so.
        if (isSshUrl(target.url) && /REMOTE HOST IDENTIFICATION HAS CHANGED|Host key verification failed/.test(err.stderr)) {
          const pinned = (await pinnedHostKey(this.ssh(target.key)).catch(() => null)) ?? 'unknown';
          throw new ProblemError(
            'store.fetch.host_key_changed',
            { pinned },
            { detail: `The server's SSH host key differs from the one pinned on the first fetch (${pinned}); the last verified copy stays in use` },
          );
        }
        // A server the box cannot reach (no network, no name service, nothing listening) is told apart so
        // the owner reads what to check instead of git's words, which stay in the detail.
        const reason = err.reason === 'exit' && unreachable.test(err.stderr) ? 'unreachable' : err.reason;
        throw new ProblemError('store.fetch.failed', { reason }, { detail: err.message.slice(0, 500) });
      });
      const index = await verifyCopy(root, target.signed ? this.deps.keys : null);
      // The swap: a new link renamed over the old one, atomic for readers.
      await symlink(name, path.join(folder, 'current.new'));
      await rename(path.join(folder, 'current.new'), path.join(folder, 'current'));
      const copy = { root, index, commit, branch: target.branch };
      this.verified.set(target.key, copy);
      await this.dropOldCopies(target.key, name);
      return copy;
    } catch (err) {
      await rm(root, { recursive: true, force: true });
      throw err;
    }
  }

  /** Copies other than the one in use (one fetch per catalog runs at a time); a file a reader still has open stays readable until it closes it. */
  private async dropOldCopies(key: number, keep: string): Promise<void> {
    for (const entry of await readdir(this.folder(key))) {
      if (entry.startsWith('copy-') && entry !== keep) await rm(path.join(this.folder(key), entry), { recursive: true, force: true });
    }
  }

  async remove(key: number): Promise<void> {
    this.verified.delete(key);
    await rm(this.folder(key), { recursive: true, force: true });
  }
}
