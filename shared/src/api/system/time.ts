import Joi from 'joi';
import { isoTime } from '../common.ts';
import { defineRoute } from '../route.ts';

/**
 * chrony's state: `synchronized` and `unsynchronized` come from a running chronyd;
 * `notRunning` when chronyc cannot reach it; `notInstalled` when chrony is absent (install `package`).
 */
export type TimeSyncState = 'synchronized' | 'unsynchronized' | 'notRunning' | 'notInstalled';

export interface TimeSync {
  state: TimeSyncState;
  /** The source chronyd follows (name or address), when synchronized. */
  source: string | null;
  stratum: number | null;
  /** How far the system clock is from true time, in seconds (positive: fast). */
  offsetSeconds: number | null;
  /** The Debian package that brings chrony, when it is not installed. */
  package: string | null;
}

/** The box's time settings (System, Time). */
export interface TimeSettings {
  /** IANA zone of the box (/etc/localtime): the daily times of schedules follow it. */
  timeZone: string;
  /** Time servers the box asks; empty means the distribution's defaults (`defaultServers`). */
  servers: string[];
  /** What chrony's own configuration names (Debian's pool). */
  defaultServers: string[];
  sync: TimeSync;
  /** The box's time now, in UTC. */
  now: string;
  /** Every zone of the box's time zone database, sorted. */
  zones: string[];
}

export interface TimeSettingsRequest {
  timeZone: string;
  servers: string[];
}

export const maxTimeServers = 8;

/** IANA zone names: `Europe/Berlin`, `America/Argentina/Buenos_Aires`, `UTC`, `Etc/GMT+5`. */
export const timeZonePattern = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9][A-Za-z0-9_+-]*){0,2}$/;

const timeZoneSchema = Joi.string().max(64).pattern(timeZonePattern).required();
// Host names or addresses only: each becomes one `server` line of chrony's configuration.
const serverSchema = Joi.alternatives().try(Joi.string().hostname().max(253), Joi.string().ip({ cidr: 'forbidden' }));

export const timeSync = Joi.object<TimeSync, true>({
  state: Joi.string().valid('synchronized', 'unsynchronized', 'notRunning', 'notInstalled').required(),
  source: Joi.string().allow(null).required(),
  stratum: Joi.number().integer().min(0).allow(null).required(),
  offsetSeconds: Joi.number().allow(null).required(),
  package: Joi.string().allow(null).required(),
}).id('TimeSync');

export const timeSettings = Joi.object<TimeSettings, true>({
  timeZone: Joi.string().required(),
  servers: Joi.array().items(Joi.string()).required(),
  defaultServers: Joi.array().items(Joi.string()).required(),
  sync: timeSync.required(),
  now: isoTime().required(),
  zones: Joi.array().items(Joi.string()).required(),
}).id('TimeSettings');

export const timeSettingsRequest = Joi.object<TimeSettingsRequest, true>({
  timeZone: timeZoneSchema,
  servers: Joi.array()
    .items(serverSchema)
    .max(maxTimeServers)
    .unique((a: string, b: string) => a.toLowerCase() === b.toLowerCase())
    .required(),
}).id('TimeSettingsRequest');

export const systemTimeRoutes = {
  time: defineRoute({
    id: 'system.time',
    method: 'GET',
    path: '/api/system/time',
    access: 'admin',
    summary: "The box's time zone, time servers, chrony's sync state and the known zones",
    status: 200,
    response: timeSettings,
    errors: [],
  }),
  setTime: defineRoute({
    id: 'system.setTime',
    method: 'PUT',
    path: '/api/system/time',
    access: 'admin',
    summary: 'Sets the time zone and time servers at once (an empty list means the distribution defaults); daily schedules follow the new zone',
    body: timeSettingsRequest,
    status: 200,
    response: timeSettings,
    errors: ['system.zone.unknown'],
  }),
};
