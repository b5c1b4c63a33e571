const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function formatTime(iso: string, language: string): string {
  let format = dateFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    dateFormats.set(language, format);
  }
  return format.format(new Date(iso));
}

/** Whether a file's name suggests a picture: only these are asked for thumbnails (the daemon still checks the content). */
export function looksLikeImage(name: string): boolean {
  return /\.(jpe?g|png|webp|gif)$/i.test(name);
}
