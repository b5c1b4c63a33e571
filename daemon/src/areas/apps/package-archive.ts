import path from 'node:path';
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { packageLimits } from '../../../../shared/src/api/apps/app-packages.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { PackageWriter } from './package-writer.ts';

/** What a package's entries add up to, once every one of them passed; `size` is the package file's. */
export interface ArchiveSummary {
  files: number;
  unpackedBytes: number;
  size: number;
}

/** Entry types a package may hold; anything else (devices, FIFOs, sparse files, ...) is refused by name. */
const fileTypes = new Set(['File', 'OldFile', 'ContiguousFile']);
const refusedTypes: Record<string, string> = { CharacterDevice: 'device', BlockDevice: 'device', FIFO: 'fifo' };

/** Tar's own headers between entries: at most a 512-byte header and padding per entry, plus pax records. */
const tarOverheadBytes = (packageLimits.entries + 2) * 1536;
/**
 * Zeros a writer pads after the end-of-archive blocks (GNU tar fills a 10 KiB record). More is
 * refused: nobody reads it, and tar would buffer all of it while unpacking.
 */
const trailingBytesLimit = 1024 * 1024;

const refuse = (entry: string, reason: string) => new ProblemError('app.package.entry_refused', { entry, reason });
const invalid = (reason: string, params: Record<string, unknown> = {}) => new ProblemError('app.package.invalid', { reason, ...params });

/** A package-relative path without `./` and trailing slashes; refuses what could leave the package. */
function entryName(raw: string): string {
  if (raw.startsWith('/')) throw refuse(raw, 'absolute');
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw refuse(raw, 'dotDot');
  if (segments.length === 0 || raw.includes('\\') || segments.some((s) => Buffer.byteLength(s) > 255) || raw.length > 1024) throw refuse(raw, 'nameInvalid');
  return segments.join('/');
}

/** A symbolic link may point only at a path inside the package, relative to its own folder. */
function linkStaysInside(name: string, target: string): boolean {
  if (target === '' || target.startsWith('/')) return false;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(name), target));
  return resolved !== '..' && !resolved.startsWith('../') && !path.posix.isAbsolute(resolved);
}

/** Checks one header at a time, before the entry is written; answers the entry's name and a hard link's target, normalised. */
class EntryRules {
  readonly seen = new Set<string>();
  private readonly folded = new Set<string>();
  private readonly regularFiles = new Set<string>();
  files = 0;
  bytes = 0;
  entries = 0;

  check(entry: ReadEntry): { name: string; linkTarget: string | null } {
    this.entries++;
    if (this.entries > packageLimits.entries) throw invalid('tooManyEntries', { limit: packageLimits.entries });
    const name = entryName(entry.path);
    const refused = refusedTypes[entry.type];
    if (refused) throw refuse(name, refused);
    if ((entry.mode ?? 0) & 0o6000) throw refuse(name, 'setId');
    // Folders may repeat (tar lists a folder before its files and again when it was appended).
    if (entry.type !== 'Directory') {
      if (this.seen.has(name)) throw refuse(name, 'duplicate');
      // A box serves the files case-sensitively, but a client unpacking on macOS or Windows would not: one name, one entry.
      if (this.folded.has(name.toLowerCase())) throw refuse(name, 'caseDuplicate');
    }
    this.seen.add(name);
    this.folded.add(name.toLowerCase());
    if (fileTypes.has(entry.type)) {
      this.files++;
      this.bytes += entry.size;
      this.regularFiles.add(name);
      if (this.bytes > packageLimits.unpackedBytes) throw invalid('tooLarge', { limit: packageLimits.unpackedBytes });
    } else if (entry.type === 'SymbolicLink') {
      if (!linkStaysInside(name, entry.linkpath ?? '')) throw refuse(name, 'linkOutside');
    } else if (entry.type === 'Link') {
      // A hard link names an earlier file of the same archive; anything else would reach a file outside it.
      const target = entry.linkpath ?? '';
      if (target.startsWith('/') || !this.regularFiles.has(entryName(target))) throw refuse(name, 'hardLinkOutside');
      this.files++;
      return { name, linkTarget: entryName(target) };
    } else if (entry.type !== 'Directory') throw refuse(name, 'unknownType');
    return { name, linkTarget: null };
  }
}

function gunzipProblem(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'Z_BUF_ERROR') return invalid('truncated');
  if (code === 'Z_DATA_ERROR') return invalid('notGzip');
  return err;
}

/** Counts the decompressed bytes and stops a stream that inflates past what any honest package holds (a gzip bomb). */
function inflationGuard(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > limit) done(invalid('tooLarge', { limit: packageLimits.unpackedBytes }));
      else done(null, chunk);
    },
  });
}

/**
 * Inflated output in 1 MiB pieces: zlib's default 16 KiB made inflating three times slower than
 * gzip's, and every piece is one write of the parser and one of the file it goes to.
 */
const inflateChunkBytes = 1024 * 1024;

/**
 * Unpacks the gzip-compressed tar `body` (the upload as it streams in) into `into`, an empty
 * private folder, in one pass: inflated, parsed, each header checked and the entry written as it
 * passes (see PackageWriter). Refuses the package at the first entry that breaks a rule (a problem
 * naming the entry), when it holds too much, or when it is no gzip or no tar at all; whatever was
 * written by then is the caller's to remove, once this settled (no write is under way any more).
 */
export async function unpackPackage(body: Readable, into: string): Promise<ArchiveSummary> {
  const rules = new EntryRules();
  const writer = new PackageWriter(into);
  let failure: unknown = null;
  const fail = (err: unknown) => void (failure ??= err);
  let written: Promise<void> = Promise.resolve();
  let sawEntry = false;
  let trailing: number | null = null;
  let size = 0;
  /** The sink's pending write, while the parser holds back (its entry is still being written). */
  let waiting: (() => void) | null = null;
  const parser = new Parser({ strict: true });
  parser.on('eof', () => (trailing ??= 0));
  parser.on('entry', (entry: ReadEntry) => {
    sawEntry = true;
    let checked: ReturnType<EntryRules['check']>;
    try {
      if (failure !== null) throw failure;
      checked = rules.check(entry);
    } catch (err) {
      fail(err);
      entry.resume();
      return;
    }
    // The parser hands over the next entry only once this one's body is consumed; links and folders have none, so chain them.
    written = written
      .then(() => (failure === null ? writer.write(entry, checked.name, checked.linkTarget) : void entry.resume()))
      .catch((err: unknown) => {
        fail(err);
        entry.resume();
      });
  });
  const parsed = new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', (err) => {
      reject(err);
      // Not a tar (or a broken one): the sink must not wait for a drain that will not come.
      fail(invalid('notTar'));
      waiting?.();
    });
  });
  // Awaited only after the pipeline; a parser that fails first must not count as unhandled.
  parsed.catch(() => undefined);
  // Counts the package's bytes, and hands them on in pieces of 1 MiB: a socket's 64 KiB chunks cost zlib a round trip each.
  let held: Buffer[] = [];
  let heldBytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < inflateChunkBytes) return done();
      const piece = Buffer.concat(held, heldBytes);
      held = [];
      heldBytes = 0;
      done(null, piece);
    },
    flush(done) {
      done(null, heldBytes > 0 ? Buffer.concat(held, heldBytes) : undefined);
    },
  });
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (failure !== null) return done(failure as Error);
      if (trailing !== null) {
        // Past the end of the archive: counted, never handed to the parser.
        trailing += chunk.length;
        return done(trailing > trailingBytesLimit ? invalid('trailingData', { limit: trailingBytesLimit }) : null);
      }
      if (parser.write(chunk)) return done();
      waiting = () => {
        waiting = null;
        done();
      };
      parser.once('drain', () => waiting?.());
    },
    final(done) {
      parser.end();
      done();
    },
  });
  try {
    await pipeline(body, counter, createGunzip({ chunkSize: inflateChunkBytes }), inflationGuard(packageLimits.unpackedBytes + tarOverheadBytes), sink);
    await parsed;
  } catch (err) {
    // The first refusal stands; a broken gzip is the package's fault, anything else (a client gone, a full disk) is not.
    fail(gunzipProblem(err));
    writer.abort();
  } finally {
    await written;
  }
  if (failure !== null) throw failure;
  if (!sawEntry) throw invalid('notTar');
  await writer.finish();
  return { files: rules.files, unpackedBytes: rules.bytes, size };
}
