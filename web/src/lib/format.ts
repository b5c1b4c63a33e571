/** One argument as a shell would need it written, so the shown line can be pasted as it is. */
function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command's argument array as one line. */
export function commandLine(argv: readonly string[]): string {
  return argv.map(quoteArg).join(' ');
}
