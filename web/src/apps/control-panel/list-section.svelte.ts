import { describeError } from '../../lib/i18n/i18n.svelte.ts';

/**
 * The state every list section of the Control Panel keeps: whether its data has loaded, the load error,
 * the last success notice and which dialog is open. `fetch` loads the section's rows (and whatever else
 * it shows) into the section's own state; a failure becomes the error line.
 */
export class ListSection<Dialog extends string> {
  loaded = $state(false);
  error = $state<string | null>(null);
  notice = $state<string | null>(null);
  dialog = $state<Dialog | null>(null);

  constructor(private readonly fetch: () => Promise<void>) {}

  async load(): Promise<void> {
    try {
      await this.fetch();
      this.error = null;
    } catch (err) {
      this.error = describeError(err);
    } finally {
      this.loaded = true;
    }
  }

  /** A dialog or editor finished: close the dialog, say what happened and reload the list. */
  async finished(message: string | null): Promise<void> {
    this.dialog = null;
    this.notice = message;
    await this.load();
  }
}
