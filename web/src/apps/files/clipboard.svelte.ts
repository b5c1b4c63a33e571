import type { SharePath } from '../../../../shared/src/api/files/operations.ts';

export interface FilesClipboard {
  op: 'copy' | 'move';
  sources: SharePath[];
}

let content = $state<FilesClipboard | null>(null);

/** Copy and cut hold entries here until pasted; shared by every Files window of the tab. */
export const clipboard = {
  get content(): FilesClipboard | null {
    return content;
  },
  set(next: FilesClipboard | null): void {
    content = next;
  },
};
