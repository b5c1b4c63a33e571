import { filesRoutes } from '../../../../shared/src/api/files/files.ts';
import { buildUrl } from '../../../../shared/src/client.ts';
import type { ProblemDetails } from '../../../../shared/src/errors/index.ts';
import { api, isProblem } from '../../lib/api.ts';
import { problemMessage } from '../../lib/i18n/messages.ts';
import { describeError, i18n } from '../../lib/i18n/i18n.svelte.ts';
import { session } from '../../lib/session.svelte.ts';
import { joinPath } from './route.ts';
import { placeIn, type UploadTree } from './upload-tree.ts';
import { numberedName } from './uploads-names.ts';

export type UploadState = 'queued' | 'uploading' | 'conflict' | 'done' | 'failed' | 'cancelled';
export type ConflictChoice = 'overwrite' | 'skip' | 'rename';

export interface UploadItem {
  id: number;
  shareId: number;
  folder: string;
  /** The name it is stored under (changes when the user keeps both). */
  name: string;
  file: File;
  loaded: number;
  state: UploadState;
  error: string | null;
  overwrite: boolean;
  /** Next number tried when keeping both: "photo (2).jpg". */
  attempt: number;
}

/** Uploads at the same time: enough to fill the line, few enough to show steady progress. */
const parallel = 2;

/**
 * The upload queue: each file is PUT as the raw body with XMLHttpRequest, whose upload
 * progress events give per-file bytes; a taken name waits for the user's choice.
 */
export class Uploads {
  items = $state<UploadItem[]>([]);
  /** Decision for every later conflict of this batch ("apply to all"). */
  private standing: ConflictChoice | null = null;
  private readonly requests = new Map<number, XMLHttpRequest>();
  private nextId = 1;
  /** Folders of dropped trees still being created; the panel says so before the files queue up. */
  preparing = $state(0);
  /** Raised by cancelAll: a tree whose folders are still being created stops there. */
  private generation = 0;

  add(shareId: number, folder: string, files: readonly File[]): void {
    this.queue(
      shareId,
      files.map((file) => ({ folder, file })),
    );
  }

  /**
   * A dropped or picked folder tree: its folders are created first, parents before children (an
   * existing folder of the same name is merged into), then every file is queued like a single
   * upload, with the same handling of taken names. A file under a folder that could not be made
   * fails with that folder's reason instead of being sent.
   */
  async addTree(shareId: number, folder: string, tree: UploadTree<File>): Promise<void> {
    const generation = this.generation;
    const broken = new Map<string, string>();
    this.preparing++;
    try {
      for (const dir of tree.folders) {
        if (this.generation !== generation) return;
        if ([...broken.keys()].some((b) => dir.startsWith(`${b}/`))) continue;
        try {
          await api.files.createFolder({ params: { shareId }, body: { path: placeIn(folder, dir) } });
        } catch (err) {
          if (!isProblem(err, 'fs.entry.exists')) broken.set(dir, describeError(err));
        }
      }
      if (this.generation !== generation) return;
      const reason = (dir: string) => [...broken].find(([b]) => dir === b || dir.startsWith(`${b}/`))?.[1] ?? null;
      this.queue(
        shareId,
        tree.files.map(({ dir, file }) => ({ folder: placeIn(folder, dir), file, error: reason(dir) })),
      );
    } finally {
      this.preparing--;
    }
  }

  private queue(shareId: number, files: readonly { folder: string; file: File; error?: string | null }[]): void {
    for (const { folder, file, error = null } of files) {
      const state: UploadState = error === null ? 'queued' : 'failed';
      this.items.push({ id: this.nextId++, shareId, folder, name: file.name, file, loaded: 0, state, error, overwrite: false, attempt: 2 });
    }
    this.pump();
  }

  /**
   * Stops every upload not yet done: running ones are aborted (the daemon keeps nothing of them),
   * queued ones never start; one whose body is fully sent finishes.
   */
  cancelAll(): void {
    this.generation++;
    for (const item of this.items) {
      if (item.state !== 'queued' && item.state !== 'uploading' && item.state !== 'conflict') continue;
      // Every byte is sent already: the file is being stored and the answer will say so truthfully.
      if (item.state === 'uploading' && item.file.size > 0 && item.loaded >= item.file.size) continue;
      this.requests.get(item.id)?.abort();
      item.state = 'cancelled';
    }
    this.standing = null;
  }

  /** The first upload waiting for a conflict decision. */
  get conflict(): UploadItem | undefined {
    return this.items.find((i) => i.state === 'conflict');
  }

  get active(): boolean {
    return this.preparing > 0 || this.items.some((i) => i.state === 'queued' || i.state === 'uploading' || i.state === 'conflict');
  }

  resolve(id: number, choice: ConflictChoice, forAll: boolean): void {
    if (forAll) this.standing = choice;
    const item = this.items.find((i) => i.id === id);
    if (item) this.decide(item, choice);
    this.pump();
  }

  cancel(id: number): void {
    const item = this.items.find((i) => i.id === id);
    if (!item || item.state === 'done') return;
    this.requests.get(id)?.abort();
    item.state = 'cancelled';
    this.pump();
  }

  /** Removes finished, failed and cancelled rows. */
  clearFinished(): void {
    this.items = this.items.filter((i) => i.state === 'queued' || i.state === 'uploading' || i.state === 'conflict');
    if (!this.active) this.standing = null;
  }

  private decide(item: UploadItem, choice: ConflictChoice): void {
    if (choice === 'skip') item.state = 'cancelled';
    else {
      if (choice === 'overwrite') item.overwrite = true;
      else item.name = numberedName(item.file.name, item.attempt++);
      item.state = 'queued';
    }
  }

  private pump(): void {
    let running = this.items.filter((i) => i.state === 'uploading').length;
    for (const item of this.items) {
      if (running >= parallel) return;
      if (item.state !== 'queued') continue;
      running++;
      this.send(item);
    }
  }

  private send(item: UploadItem): void {
    item.state = 'uploading';
    item.loaded = 0;
    const xhr = new XMLHttpRequest();
    this.requests.set(item.id, xhr);
    const url = buildUrl(filesRoutes.upload, { shareId: item.shareId }, { path: joinPath(item.folder, item.name), overwrite: item.overwrite || undefined });
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.setRequestHeader('Accept', 'application/json');
    const token = session.user?.csrfToken;
    if (token) xhr.setRequestHeader('X-CSRF-Token', token);
    xhr.upload.onprogress = (e) => {
      item.loaded = e.loaded;
    };
    xhr.onload = () => this.finished(item, xhr);
    xhr.onerror = () => this.failed(item, null);
    xhr.send(item.file);
  }

  private finished(item: UploadItem, xhr: XMLHttpRequest): void {
    this.requests.delete(item.id);
    if (xhr.status === 201) {
      item.loaded = item.file.size;
      item.state = 'done';
      return this.pump();
    }
    let problem: ProblemDetails | null = null;
    try {
      problem = JSON.parse(xhr.responseText) as ProblemDetails;
    } catch {
      // Not problem details (a proxy's page): reported as a network failure below.
    }
    if (problem?.code === 'fs.entry.exists' && !item.overwrite) {
      if (this.standing) this.decide(item, this.standing);
      else item.state = 'conflict';
      return this.pump();
    }
    this.failed(item, problem);
  }

  private failed(item: UploadItem, problem: ProblemDetails | null): void {
    this.requests.delete(item.id);
    if (item.state === 'cancelled') return;
    item.state = 'failed';
    item.error = problem ? problemMessage(i18n.language, problem) : null;
    this.pump();
  }
}
