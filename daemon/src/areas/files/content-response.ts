import path from 'node:path';
import type { Request, Response } from 'express';
import { ProblemError } from '../../core/problem-error.ts';
import { etagOf } from './file-entry.ts';
import type { OpenFile } from './files.service.ts';
import { sendRange } from './send-range.ts';

export type RangePlan = { kind: 'full' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * Reads a Range header (RFC 9110 14.2). One range is served as 206. Several ranges are
 * answered with the whole file (200), which the RFC allows and which saves multipart
 * bodies no client of the box asks for. A malformed header is ignored, as the RFC says.
 */
export function planRange(header: string | undefined, size: number): RangePlan {
  if (header === undefined) return { kind: 'full' };
  const m = /^bytes=(.+)$/i.exec(header.trim());
  if (!m?.[1] || m[1].includes(',')) return { kind: 'full' };
  const spec = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(m[1]);
  if (!spec || (spec[1] === '' && spec[2] === '')) return { kind: 'full' };
  const [first, last] = [spec[1] ?? '', spec[2] ?? ''];
  if (first === '') {
    // Suffix range: the last N bytes; N = 0 selects nothing.
    const n = Number(last);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}

/** RFC 6266 / 8187: an ASCII fallback name plus the exact UTF-8 name. */
export function contentDisposition(name: string, inline: boolean): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

function lastModifiedOf(file: OpenFile): string {
  return new Date(Number(file.mtimeNs / 1_000_000n)).toUTCString();
}

/** The list of tags of If-None-Match matches (weak comparison, as that header uses). */
function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

function notModified(req: Request, file: OpenFile, etag: string): boolean {
  const inm = req.get('If-None-Match');
  if (inm !== undefined) return noneMatch(inm, etag);
  const ims = req.get('If-Modified-Since');
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Math.floor(Number(file.mtimeNs / 1_000_000n) / 1000) * 1000 <= since;
}

/** If-Range: the range applies only while the file is still the one the client has part of. */
function rangeStillValid(req: Request, etag: string, lastModified: string): boolean {
  const ifRange = req.get('If-Range');
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  // A weak tag never matches in If-Range (strong comparison).
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  return value === lastModified;
}

/**
 * Sends an opened file: validators, conditional 304, ranges (206/416), disposition, and
 * the headers that keep a browser from running what it downloads (CSP sandbox, nosniff).
 * Shown in place (`inline`), the file may be framed by the desktop's own pages only, for the
 * browser's PDF viewer in the Files preview; the sandbox gives it an origin of its own, so
 * nothing in it can script the desktop. A download may not be framed at all.
 * The bytes follow the client's pace (send-range.ts); the handle is always closed.
 */
export async function sendFile(req: Request, res: Response, file: OpenFile, inline: boolean): Promise<void> {
  const etag = etagOf({ ino: file.ino, size: BigInt(file.size), mtimeNs: file.mtimeNs });
  const lastModified = lastModifiedOf(file);
  res.setHeader('Content-Security-Policy', inline ? "sandbox; frame-ancestors 'self'" : "sandbox; frame-ancestors 'none'");
  res.setHeader('X-Frame-Options', inline ? 'SAMEORIGIN' : 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', lastModified);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', 'private, no-cache');
  try {
    if (notModified(req, file, etag)) {
      res.status(304).end();
      return;
    }
    const plan = rangeStillValid(req, etag, lastModified) ? planRange(req.get('Range'), file.size) : ({ kind: 'full' } as const);
    if (plan.kind === 'unsatisfiable')
      throw new ProblemError('fs.range.not_satisfiable', { size: file.size }, { headers: { 'Content-Range': `bytes */${file.size}` } });
    const ext = path.extname(file.name);
    res.type(ext === '' ? 'application/octet-stream' : ext);
    res.setHeader('Content-Disposition', contentDisposition(file.name, inline));
    const [start, end] = plan.kind === 'part' ? [plan.start, plan.end] : [0, file.size - 1];
    res.setHeader('Content-Length', String(Math.max(0, end - start + 1)));
    if (plan.kind === 'part') {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${start}-${end}/${file.size}`);
    } else res.status(200);
    if (file.size === 0 || req.method === 'HEAD') {
      res.end();
      return;
    }
    await sendRange(file.handle, res, start, end).catch((err: unknown) => {
      // The client went away mid-download: nothing to answer any more.
      if (res.destroyed || (err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      throw err;
    });
  } finally {
    await file.handle.close().catch(() => undefined);
  }
}
