import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { packageLimits } from '../../../../shared/src/api/apps/app-packages.ts';
import type { AppManifest } from '../../../../shared/src/api/apps/app-manifest.ts';
import type { Clock } from '../../core/clock.ts';
import { ProblemError } from '../../core/problem-error.ts';

/** An uploaded package that passed every check, waiting for its uploader to install or discard it. */
export interface KeptPackage {
  id: string;
  ownerId: number;
  /** The package's private folder, with files/ (unpacked). */
  folder: string;
  manifest: AppManifest;
  /** The catalog the package was taken from (its id); null: uploaded by hand. */
  source: string | null;
  icon: string;
  size: number;
  unpackedBytes: number;
  files: number;
  expiresAt: number;
}

const keptMs = packageLimits.keptMinutes * 60_000;

/**
 * Uploaded packages for 15 minutes, each in a folder of its own below the data directory (which
 * only root reads). The list lives in memory: a restart forgets them, and the sweep at start
 * removes their folders, so a kept package never outlives its 15 minutes on disk either.
 */
export class PackageStore {
  private readonly kept = new Map<string, KeptPackage>();
  /** Uploads under way and packages an install job took: the sweep leaves their folders alone. */
  private readonly filling = new Set<string>();

  constructor(private readonly deps: { root: string; clock: Clock }) {}

  /** A new empty folder for an upload, with its id. */
  async reserve(): Promise<{ id: string; folder: string }> {
    const id = randomBytes(16).toString('hex');
    const folder = path.join(this.deps.root, id);
    await mkdir(this.deps.root, { recursive: true, mode: 0o700 });
    await mkdir(folder, { mode: 0o700 });
    this.filling.add(id);
    return { id, folder };
  }

  keep(pkg: Omit<KeptPackage, 'expiresAt'>): KeptPackage {
    const kept = { ...pkg, expiresAt: this.deps.clock.now() + keptMs };
    this.filling.delete(pkg.id);
    this.kept.set(pkg.id, kept);
    return kept;
  }

  /** The package when it is still kept for this administrator; another's or an expired one is not found. */
  get(id: string, ownerId: number): KeptPackage {
    const kept = this.kept.get(id);
    if (!kept || kept.ownerId !== ownerId || kept.expiresAt <= this.deps.clock.now()) throw new ProblemError('app.package.not_found', { packageId: id });
    return kept;
  }

  async discard(id: string, ownerId: number): Promise<void> {
    this.get(id, ownerId);
    this.kept.delete(id);
    await rm(path.join(this.deps.root, id), { recursive: true, force: true });
  }

  /**
   * Hands a kept package to an install job: no longer kept (a second install finds nothing), its
   * folder left to the job, which drops it when done.
   */
  take(id: string, ownerId: number): KeptPackage {
    const kept = this.get(id, ownerId);
    this.kept.delete(id);
    this.filling.add(id);
    return kept;
  }

  /** Removes the folder of an upload that failed or a package an install job is done with, so nothing of it stays. */
  async drop(id: string): Promise<void> {
    await rm(path.join(this.deps.root, id), { recursive: true, force: true });
    this.filling.delete(id);
  }

  /** Removes expired packages and folders no kept package owns (a crash mid-upload, a restart). */
  async sweep(): Promise<void> {
    const now = this.deps.clock.now();
    for (const [id, kept] of this.kept) if (kept.expiresAt <= now) this.kept.delete(id);
    const names = await readdir(this.deps.root).catch(() => [] as string[]);
    for (const name of names) if (!this.kept.has(name) && !this.filling.has(name)) await rm(path.join(this.deps.root, name), { recursive: true, force: true });
  }
}
