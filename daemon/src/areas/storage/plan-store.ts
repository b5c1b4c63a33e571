import { randomUUID } from 'node:crypto';
import type { StoragePlanPreview } from '../../../../shared/src/api/storage/storage.ts';
import type { Clock } from '../../core/clock.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { PlanBody } from './plan-builders.ts';

export const planValidityMs = 10 * 60 * 1000;

interface StoredPlan extends PlanBody {
  id: string;
  expiresAt: number;
  used: boolean;
}

/** Previewed plans, kept in memory: valid 10 minutes, taken once. A restart forgets them (preview again). */
export class PlanStore {
  private readonly plans = new Map<string, StoredPlan>();

  constructor(private readonly clock: Clock) {}

  add(body: PlanBody): StoragePlanPreview {
    this.sweep();
    const plan: StoredPlan = { ...body, id: randomUUID(), expiresAt: this.clock.now() + planValidityMs, used: false };
    this.plans.set(plan.id, plan);
    return {
      planId: plan.id,
      kind: plan.kind,
      commands: plan.steps.map((s) => s.argv),
      disks: [...new Set(plan.steps.flatMap((s) => s.disks))],
      destroys: plan.destroys,
      warnings: plan.warnings,
      expiresAt: new Date(plan.expiresAt).toISOString(),
    };
  }

  /** Takes the plan for its one run. */
  take(planId: string): PlanBody {
    const plan = this.plans.get(planId);
    if (!plan) throw new ProblemError('storage.plan.not_found', { planId });
    if (plan.used) throw new ProblemError('storage.plan.already_run', { planId });
    if (this.clock.now() >= plan.expiresAt) throw new ProblemError('storage.plan.expired', { planId });
    plan.used = true;
    return plan;
  }

  /** Forgets plans long past expiry (kept a while so a late run still hears "expired", not "not found"). */
  private sweep(): void {
    const now = this.clock.now();
    for (const [id, plan] of this.plans) if (now > plan.expiresAt + planValidityMs) this.plans.delete(id);
  }
}
