import { describeError } from '../../lib/i18n/i18n.svelte.ts';

/** The busy flag and error line of a Control Panel dialog or panel while it sends its change to the box. */
export class DialogForm {
  busy = $state(false);
  error = $state<string | null>(null);

  constructor(private readonly describe: (err: unknown) => string = describeError) {}

  /** Runs the request; while it runs the dialog is busy, a failure becomes the dialog's error line. */
  async run(request: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      await request();
    } catch (err) {
      this.error = this.describe(err);
    } finally {
      this.busy = false;
    }
  }
}

/** Action: focuses the dialog's first field when it opens. */
export function focus(node: HTMLElement): void {
  node.focus();
}
