import type { AdminAppList, AppDetails } from '../../../../shared/src/api/apps/apps.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import { api } from '../../lib/api.ts';
import { live } from '../../lib/live.ts';

/** The installed apps every view of the App Center shows, kept live: `apps/admin` carries the whole list on each change. */
export class AppsStore {
  list = $state<AdminAppList | null>(null);
  error = $state<unknown>(null);

  start(): () => void {
    void this.reload();
    return live.subscribe('appsAdmin', topicName.appsAdmin, {
      snapshot: (list) => (this.list = list),
      event: (event) => (this.list = event.data),
    });
  }

  app(appId: string): AppDetails | undefined {
    return this.list?.apps.find((a) => a.id === appId);
  }

  /** Takes a change's answer at once, before the topic's event arrives. */
  put(details: AppDetails): void {
    if (!this.list) return;
    this.list = { ...this.list, apps: this.list.apps.map((a) => (a.id === details.id ? details : a)) };
  }

  async reload(): Promise<void> {
    try {
      this.list = await api.apps.list();
      this.error = null;
    } catch (err) {
      this.error = err;
    }
  }
}
