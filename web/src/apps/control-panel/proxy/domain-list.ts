/** The names typed into a proxy dialog (spaces or commas between them), lower case, each once. */
export function domainList(text: string): string[] {
  return [
    ...new Set(
      text
        .toLowerCase()
        .split(/[\s,]+/)
        .filter(Boolean),
    ),
  ];
}
