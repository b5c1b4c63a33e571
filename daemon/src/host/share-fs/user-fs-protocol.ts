import type { BigIntStats, Stats } from 'node:fs';
import { statSync } from 'node:fs';
import type { ErrorCode } from '../../../../shared/src/errors/index.ts';
import { ProblemError } from '../../core/problem-error.ts';

/**
 * What the daemon and a user's file worker say to each other over the IPC channel (structured
 * clone, so bigints and dates pass). Entries go as a real path or a folder the worker holds.
 */
export type WireEntry = { abs: string } | { folder: number; name?: string };

export interface WireRequest {
  id: number;
  op: string;
  args: unknown[];
}

export type WireError =
  { problem: { code: ErrorCode; params?: Record<string, unknown> } } | { code?: string; errno?: number; syscall?: string; message: string };

export type WireResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** The identity a worker takes before it answers anything. */
export interface WorkerIdentity {
  uid: number;
  gid: number;
  groups: number[];
}

/** Sent once, after the worker dropped to its identity. */
export interface WorkerReady {
  ready: true;
  uid: number;
}

export const identityEnv = 'CELLAR_USER_FS_IDENTITY';

export function errorToWire(err: unknown): WireError {
  if (err instanceof ProblemError) return { problem: { code: err.code, params: err.params } };
  const e = err as NodeJS.ErrnoException;
  return { code: e.code, errno: e.errno, syscall: e.syscall, message: e.message ?? String(err) };
}

export function errorFromWire(w: WireError): Error {
  if ('problem' in w) return new ProblemError(w.problem.code, w.problem.params);
  const err = new Error(w.message) as NodeJS.ErrnoException;
  if (w.code !== undefined) err.code = w.code;
  if (w.errno !== undefined) err.errno = w.errno;
  if (w.syscall !== undefined) err.syscall = w.syscall;
  return err;
}

// A clone keeps the fields of a Stats but not its class; its methods read only those fields.
const statsProto = Object.getPrototypeOf(statSync('/')) as object;
const bigStatsProto = Object.getPrototypeOf(statSync('/', { bigint: true })) as object;

export function statsFromWire(value: unknown): Stats {
  return Object.setPrototypeOf(value as object, statsProto) as Stats;
}

export function bigStatsFromWire(value: unknown): BigIntStats {
  return Object.setPrototypeOf(value as object, bigStatsProto) as BigIntStats;
}
