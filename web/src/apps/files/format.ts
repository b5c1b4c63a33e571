/** Whether a file's name suggests a picture: only these are asked for thumbnails (the daemon still checks the content). */
export function looksLikeImage(name: string): boolean {
  return /\.(jpe?g|png|webp|gif)$/i.test(name);
}
