import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { SharePlanRequest, StoragePlanPreview, StoragePlanRequest } from '../../../../shared/src/api/storage/storage.ts';
import type { JobContext } from '../../core/jobs/job-types.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { leafNames } from '../../host/zfs/zpool-status.ts';
import type { ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import { makeShareTree } from '../shares/share-layout.ts';
import { memberRefusal, type DiskGuard } from './disk-guard.ts';
import {
  diskReplacePlan,
  poolCreatePlan,
  poolExportPlan,
  poolImportPlan,
  shareCreatePlan,
  shareDataset,
  shareDeletePlan,
  type PlanBody,
  type PlanFollowUp,
  type PlanStep,
  type ShareServices,
} from './plan-builders.ts';
import type { PlanStore } from './plan-store.ts';
import type { SnapshotsService } from './snapshots.service.ts';

export const planJobKind = 'storage.plan';

/** The shares area as plans need it: dataset shares are registered and removed through it. */
export interface DatasetShares {
  nameTaken(name: string): Promise<boolean>;
  find(shareId: number): Promise<{ id: number; name: string; dataset: string | null } | null>;
  /** Share names on a pool's datasets (export warnings). */
  namesOnPool(pool: string): Promise<string[]>;
  register(share: { name: string; dataset: string; hostPath: string; services?: ShareServices }): Promise<number>;
  remove(shareId: number): Promise<void>;
}

export interface PlanJobParams {
  kind: PlanBody['kind'];
  steps: PlanStep[];
  after: PlanFollowUp;
}

export interface PlansDeps {
  zfs: ZfsDriver;
  guard: DiskGuard;
  store: PlanStore;
  snapshots: SnapshotsService;
  shares: DatasetShares;
  enqueue(params: PlanJobParams, userId: number): Promise<Job>;
  mountRoot: string;
  /** Whether plan commands really run; in development mode they are only logged. */
  applies: boolean;
  importDirs: readonly string[];
  /** After a plan ran (also when it failed): pools and alerts are read again. */
  changed(): void;
}

/** Previews of destructive actions and their one run as a job. */
export class PlansService {
  constructor(private readonly deps: PlansDeps) {}

  async preview(request: StoragePlanRequest): Promise<StoragePlanPreview> {
    return this.deps.store.add(await this.build(request));
  }

  async previewShare(request: SharePlanRequest): Promise<StoragePlanPreview> {
    const { zfs, shares } = this.deps;
    if (request.kind === 'share.create') {
      // Registering the share needs the dataset the commands create: with commands only logged
      // the run could not finish, so it is refused before anything is shown or run.
      if (!this.deps.applies) throw new ProblemError('storage.apply.disabled', { kind: request.kind });
      await this.requirePool(request.pool);
      if (await shares.nameTaken(request.name)) throw new ProblemError('fs.share.name_taken', { name: request.name });
      const dataset = shareDataset(request.pool, request.name);
      if (await zfs.exists(dataset)) throw new ProblemError('fs.share.name_taken', { name: request.name });
      const services = { smbEnabled: request.smbEnabled ?? true, sftpEnabled: request.sftpEnabled ?? true };
      return this.deps.store.add(shareCreatePlan(request.name, dataset, request.quotaBytes ?? null, await zfs.exists(`${request.pool}/shares`), services));
    }
    const share = await shares.find(request.shareId);
    if (!share) throw new ProblemError('fs.share.not_found', { shareId: request.shareId });
    if (!share.dataset) throw new ProblemError('fs.share.no_dataset');
    const snapshots = request.destroyData && (await zfs.exists(share.dataset)) ? await this.deps.snapshots.ofTree(share.dataset) : [];
    return this.deps.store.add(shareDeletePlan(share.id, share.dataset, request.destroyData, snapshots));
  }

  async run(planId: string, userId: number): Promise<Job> {
    const plan = this.deps.store.take(planId);
    return this.deps.enqueue({ kind: plan.kind, steps: plan.steps, after: plan.after }, userId);
  }

  /** The job: each command exactly as previewed, disks rechecked right before it, stop at the first failure. */
  async execute(ctx: JobContext<PlanJobParams>): Promise<{ commands: number }> {
    const { steps, after } = ctx.params;
    try {
      for (const [i, step] of steps.entries()) {
        ctx.signal.throwIfAborted();
        ctx.progress(i, steps.length + 1, 'commands');
        if (step.disks.length > 0) await this.recheck(step);
        const r = await this.deps.zfs.run(step.argv, ctx.signal);
        if (r.exitCode !== 0) {
          throw new ProblemError('storage.command.failed', { command: step.argv, exitCode: r.exitCode, output: (r.stderr + r.stdout).trim().slice(0, 4000) });
        }
        ctx.logger.info('storage plan command ran', { logCode: 'storage.planCommandRan', component: 'storage', argv: step.argv });
      }
      await this.followUp(after);
      ctx.progress(steps.length + 1, steps.length + 1, 'commands');
      return { commands: steps.length };
    } finally {
      this.deps.changed();
    }
  }

  private async build(request: StoragePlanRequest): Promise<PlanBody> {
    const { zfs, importDirs } = this.deps;
    switch (request.kind) {
      case 'pool.create': {
        if ((await zfs.listPools()).some((p) => p.name === request.pool)) throw new ProblemError('storage.pool.exists', { pool: request.pool });
        const disks = await this.usableDisks(request.disks);
        return poolCreatePlan(request.pool, request.layout, disks, this.deps.mountRoot);
      }
      case 'pool.import.readonly':
      case 'pool.import': {
        const readOnly = request.kind === 'pool.import.readonly';
        if (readOnly && !(await zfs.capabilities()).readOnlyImport) throw new ProblemError('storage.capability.unsupported', { feature: 'readOnlyImport' });
        if ((await zfs.listPools()).some((p) => p.name === request.pool)) throw new ProblemError('storage.pool.exists', { pool: request.pool });
        const found = (await zfs.importScan(importDirs)).find((p) => p.name === request.pool || p.id === request.pool);
        if (!found) throw new ProblemError('storage.pool.not_importable', { pool: request.pool });
        return poolImportPlan(request.pool, readOnly, importDirs, await this.deps.guard.diskNames(leafNames(found)));
      }
      case 'pool.export': {
        const [status] = await zfs.status(request.pool);
        if (!status || status.name !== request.pool) throw new ProblemError('storage.pool.not_found', { pool: request.pool });
        return poolExportPlan(request.pool, await this.deps.shares.namesOnPool(request.pool), await this.deps.guard.diskNames(leafNames(status)));
      }
      case 'disk.replace': {
        const [status] = await zfs.status(request.pool);
        if (!status) throw new ProblemError('storage.pool.not_found', { pool: request.pool });
        if (!leafNames(status).includes(request.oldDisk)) throw new ProblemError('storage.disk.not_found', { disk: request.oldDisk });
        const [disk] = await this.usableDisks([request.newDisk]);
        return diskReplacePlan(request.pool, request.oldDisk, disk!);
      }
    }
  }

  private async requirePool(pool: string): Promise<void> {
    if (!(await this.deps.zfs.listPools()).some((p) => p.name === pool)) throw new ProblemError('storage.pool.not_found', { pool });
  }

  private async usableDisks(names: string[]): Promise<{ name: string; path: string }[]> {
    const verdicts = await this.deps.guard.verdicts();
    return names.map((name) => {
      const verdict = verdicts.get(name);
      if (!verdict) throw new ProblemError('storage.disk.not_found', { disk: name });
      if (verdict.reasons.length > 0) throw new ProblemError('storage.disk.refused', { disk: name, reasons: verdict.reasons });
      return { name, path: verdict.facts.device.path };
    });
  }

  private async recheck(step: PlanStep): Promise<void> {
    if (!step.member) {
      await this.usableDisks(step.disks);
      return;
    }
    const verdicts = await this.deps.guard.verdicts();
    for (const disk of step.disks) {
      const verdict = verdicts.get(disk);
      if (!verdict) throw new ProblemError('storage.disk.not_found', { disk });
      const why = memberRefusal(verdict.reasons, verdict.facts.pools, step.member);
      if (why) throw new ProblemError('storage.plan.stale', { disk, detail: why });
    }
  }

  private async followUp(after: PlanFollowUp): Promise<void> {
    if (!after) return;
    if (after.kind === 'share.remove') return this.deps.shares.remove(after.shareId);
    const [dataset] = await this.deps.zfs.objects(after.dataset, 0);
    const mountpoint = dataset?.props.get('mountpoint');
    if (!mountpoint || !mountpoint.startsWith('/')) throw new ProblemError('storage.dataset.not_found', { dataset: after.dataset });
    // The share is the dataset's `files` folder, so its recycle bin sits beside it on the same dataset.
    await this.deps.shares.register({ name: after.name, dataset: after.dataset, hostPath: await makeShareTree(mountpoint), services: after.services });
  }
}
