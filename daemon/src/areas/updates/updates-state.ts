import { maxHistory, type UpdateCheck, type UpdateHistoryEntry, type UpdateSettings, type UploadedUpdate } from '../../../../shared/src/api/updates/updates.ts';
import type { SystemSettingRow } from '../system/system-settings.model.ts';

/** What the updates area keeps: one JSON row of the System area's settings table (small, bounded). */
export interface UpdatesState {
  settings: UpdateSettings;
  lastCheck: UpdateCheck | null;
  upload: (UploadedUpdate & { file: string }) | null;
  history: UpdateHistoryEntry[];
  nextId: number;
}

const key = 'updates';

export const defaultUpdateSettings: UpdateSettings = { channel: 'stable', checkTime: '03:00', automaticSecurity: false };

export class UpdatesStateStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly rows: typeof SystemSettingRow,
    private readonly now: () => number,
  ) {}

  async load(): Promise<UpdatesState> {
    const row = await this.rows.findByPk(key);
    const fresh: UpdatesState = { settings: defaultUpdateSettings, lastCheck: null, upload: null, history: [], nextId: 1 };
    return row ? { ...fresh, ...(JSON.parse(row.value) as Partial<UpdatesState>) } : fresh;
  }

  async save(state: UpdatesState): Promise<void> {
    state.history = state.history.slice(0, maxHistory);
    await this.rows.upsert({ key, value: JSON.stringify(state), updatedAt: new Date(this.now()).toISOString() });
  }

  /** Changes the state in one read-modify-write, one change at a time (a job and a request may meet). */
  change<T>(fn: (state: UpdatesState) => T): Promise<T> {
    const next = this.queue.then(async () => {
      const state = await this.load();
      const result = fn(state);
      await this.save(state);
      return result;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
