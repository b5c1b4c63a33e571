import { filesRoutes, type FileEntry } from '../../../../shared/src/api/files/files.ts';
import { buildUrl } from '../../../../shared/src/client.ts';

export type PreviewKind = 'image' | 'text' | 'pdf' | 'audio' | 'video';

const kinds: [RegExp, PreviewKind][] = [
  [/\.(jpe?g|png|gif|webp|avif|bmp)$/i, 'image'],
  [/\.(txt|log|md|csv|json|ya?ml|ini|conf)$/i, 'text'],
  [/\.pdf$/i, 'pdf'],
  [/\.(mp3|ogg|oga|opus|wav|flac|m4a)$/i, 'audio'],
  [/\.(mp4|webm|ogv|m4v)$/i, 'video'],
];

/** How the browser can show a file by its name, or null when it only downloads. */
export function previewKindOf(entry: FileEntry): PreviewKind | null {
  if (entry.type !== 'file') return null;
  return kinds.find(([pattern]) => pattern.test(entry.name))?.[1] ?? null;
}

/** The file's content shown in place: the daemon answers it sandboxed and never sniffs its type. */
export function inlineUrlOf(shareId: number, entry: FileEntry): string {
  return buildUrl(filesRoutes.download, { shareId }, { path: entry.path, inline: true });
}
