import { filesRoutes } from '../../../../shared/src/api/files.ts';
import { buildUrl } from '../../../../shared/src/client.ts';
import type { ProblemDetails } from '../../../../shared/src/errors/index.ts';
import { problemMessage } from '../../lib/i18n/messages.ts';
import { i18n } from '../../lib/i18n/i18n.svelte.ts';
import { session } from '../../lib/session.svelte.ts';
import { joinPath } from './route.ts';
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

  add(shareId: number, folder: string, files: readonly File[]): void {
    for (const file of files) {
      this.items.push({ id: this.nextId++, shareId, folder, name: file.name, file, loaded: 0, state: 'queued', error: null, overwrite: false, attempt: 2 });
    }
    this.pump();
  }

  /** The first upload waiting for a conflict decision. */
  get conflict(): UploadItem | undefined {
    return this.items.find((i) => i.state === 'conflict');
  }

  get active(): boolean {
    return this.items.some((i) => i.state === 'queued' || i.state === 'uploading' || i.state === 'conflict');
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
