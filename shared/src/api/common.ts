import Joi from 'joi';
import { errorCatalog } from '../errors/index.ts';

/** int64 ids travel as JSON numbers. */
export const id = () => Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER);
/** ISO 8601 time in UTC. */
export const isoTime = () => Joi.string().isoDate();

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  params?: Record<string, unknown>;
  requestId: string;
}

export const problemSchema = Joi.object<ProblemBody, true>({
  type: Joi.string().required(),
  title: Joi.string().required(),
  status: Joi.number().integer().required(),
  detail: Joi.string().allow('').required(),
  code: Joi.string()
    .valid(...Object.keys(errorCatalog))
    .required(),
  params: Joi.object().unknown(true),
  requestId: Joi.string().required(),
}).id('ProblemDetails');

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A cursor-paged list: `{items, nextCursor}` per the contract. */
export function pageOf<T>(item: Joi.Schema<T>, name: string) {
  return Joi.object<Page<T>, true>({
    items: Joi.array().items(item).required(),
    nextCursor: Joi.string().allow(null).required(),
  }).id(name);
}

export const idParams = Joi.object<{ id: number }, true>({ id: id().required() });

/** What an operation that runs a program of the machine answers when it is not installed (ZFS on a laptop). */
export const hostToolErrors = ['host.tool.missing'] as const;

/** What any operation on a path inside a share can answer before it looks at the entry. */
export const pathErrors = ['fs.share.not_found', 'fs.path.invalid', 'fs.path.reserved', 'fs.path.outside_share', 'fs.entry.forbidden'] as const;

/** A quota in bytes as homes and apps take it: 0 for none, else at least 1 MiB; null for the default. */
export const quotaBytes = () =>
  // allow() lets 0 past min(): the same rule as a custom check, but one the document can carry.
  Joi.number()
    .integer()
    .min(1024 * 1024)
    .max(Number.MAX_SAFE_INTEGER)
    .allow(0, null)
    .required();
