import type { ResourceSample } from '../../../../shared/src/api/system/monitor.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import { live } from '../../lib/live.ts';

/** Samples shown at most: ten minutes a second. The snapshot brings up to an hour; older ones are dropped. */
export const graphSpan = 600;

/** The resource monitor's samples for the Overview window, from its first paint (the snapshot) on. */
export class MonitorStore {
  samples = $state<ResourceSample[]>([]);
  problem = $state<unknown>(null);
  private stop: (() => void) | null = null;

  start(): void {
    this.stop = live.subscribe('systemMonitor', topicName.systemMonitor, {
      snapshot: (history) => (this.samples = history.samples.slice(-graphSpan)),
      event: (event) => (this.samples = [...this.samples.slice(-(graphSpan - 1)), event.data]),
      ended: (problem) => (this.problem = problem),
    });
  }

  close(): void {
    this.stop?.();
    this.stop = null;
  }
}
