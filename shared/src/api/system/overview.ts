import Joi from 'joi';
import { id, isoTime } from '../common.ts';
import { defineRoute } from '../route.ts';

/** What the box is (System, Overview). */
export interface SystemOverview {
  version: string;
  /** The source commit the daemon was built from, when known. */
  commit: string | null;
  /** `PRETTY_NAME` of /etc/os-release. */
  operatingSystem: string | null;
  kernel: string;
  /** Vendor and model of the board (DMI), when the firmware tells. */
  machine: string | null;
  architecture: string;
  processor: { model: string; cores: number };
  memory: { totalBytes: number };
  hostName: string;
  /** Since the machine booted. */
  uptimeSeconds: number;
  /** When the daemon started, in UTC. */
  daemonStartedAt: string;
}

/** A user signed in to the desktop: their live sessions of the daemon (browsers, the console). */
export interface SignedInUser {
  userId: number;
  username: string;
  displayName: string;
  sessions: number;
  /** The earliest sign-in of those sessions, in UTC. */
  since: string | null;
}

/** An open SMB session as smbd tells it: who, from where, and the shares they have open. */
export interface SmbSession {
  username: string;
  /** The client's address (or name). */
  client: string;
  /** The SMB dialect, e.g. SMB3_11. */
  protocol: string;
  encrypted: boolean;
  shares: string[];
}

/**
 * What the host says of open SMB sessions: the list; or that the tool that tells (`smbstatus`) is
 * not installed, with the Debian package to install; or that asking it failed.
 */
export type SmbSessions = { state: 'ok'; sessions: SmbSession[] } | { state: 'missing'; tool: string; package: string } | { state: 'failed' };

/** Who uses the box now (System, Overview): signed in to the desktop, and over SMB. */
export interface SystemSessions {
  desktop: SignedInUser[];
  smb: SmbSessions;
}

export type PowerAction = 'restart' | 'shutdown';

export interface PowerRequest {
  action: PowerAction;
}

/** A job that the restart or shut-down will cut. */
export interface CutJob {
  id: number;
  kind: string;
  state: 'queued' | 'running';
  userId: number | null;
}

export interface PowerAnswer {
  action: PowerAction;
  /** When the box acts, in UTC. */
  at: string;
  /** Unfinished jobs, cut by the restart or shut-down. */
  jobs: CutJob[];
}

/** What a restart or shut-down would cut now, and the one under way: the confirmation's facts. */
export interface PowerState {
  pending: { action: PowerAction; at: string } | null;
  jobs: CutJob[];
}

export const systemOverview = Joi.object<SystemOverview, true>({
  version: Joi.string().required(),
  commit: Joi.string().allow(null).required(),
  operatingSystem: Joi.string().allow(null).required(),
  kernel: Joi.string().required(),
  machine: Joi.string().allow(null).required(),
  architecture: Joi.string().required(),
  processor: Joi.object({ model: Joi.string().allow('').required(), cores: Joi.number().integer().min(1).required() }).required(),
  memory: Joi.object({ totalBytes: Joi.number().integer().min(0).required() }).required(),
  hostName: Joi.string().required(),
  uptimeSeconds: Joi.number().min(0).required(),
  daemonStartedAt: isoTime().required(),
}).id('SystemOverview');

export const systemSessions = Joi.object<SystemSessions, true>({
  desktop: Joi.array()
    .items(
      Joi.object<SignedInUser, true>({
        userId: id().required(),
        username: Joi.string().required(),
        displayName: Joi.string().allow('').required(),
        sessions: Joi.number().integer().min(1).required(),
        since: isoTime().allow(null).required(),
      }).id('SignedInUser'),
    )
    .required(),
  smb: Joi.alternatives()
    .try(
      Joi.object({
        state: Joi.string().valid('ok').required(),
        sessions: Joi.array()
          .items(
            Joi.object<SmbSession, true>({
              username: Joi.string().allow('').required(),
              client: Joi.string().allow('').required(),
              protocol: Joi.string().allow('').required(),
              encrypted: Joi.boolean().required(),
              shares: Joi.array().items(Joi.string()).required(),
            }).id('SmbSession'),
          )
          .required(),
      }),
      Joi.object({ state: Joi.string().valid('missing').required(), tool: Joi.string().required(), package: Joi.string().required() }),
      Joi.object({ state: Joi.string().valid('failed').required() }),
    )
    .required(),
}).id('SystemSessions');

export const powerRequest = Joi.object<PowerRequest, true>({ action: Joi.string().valid('restart', 'shutdown').required() }).id('PowerRequest');

const cutJobs = Joi.array()
  .items(
    Joi.object<CutJob, true>({
      id: id().required(),
      kind: Joi.string().required(),
      state: Joi.string().valid('queued', 'running').required(),
      userId: id().allow(null).required(),
    }),
  )
  .required();
const powerAction = Joi.string().valid('restart', 'shutdown').required();

export const powerAnswer = Joi.object<PowerAnswer, true>({ action: powerAction, at: isoTime().required(), jobs: cutJobs }).id('PowerAnswer');

export const powerState = Joi.object<PowerState, true>({
  pending: Joi.object({ action: powerAction, at: isoTime().required() }).allow(null).required(),
  jobs: cutJobs,
}).id('PowerState');

export const systemOverviewRoutes = {
  overview: defineRoute({
    id: 'system.overview',
    method: 'GET',
    path: '/api/system/overview',
    access: 'admin',
    summary: 'Version, commit, operating system, kernel, machine, processor, memory, host name and uptime; the `system/monitor` topic shows the load live',
    status: 200,
    response: systemOverview,
    errors: [],
  }),
  sessions: defineRoute({
    id: 'system.sessions',
    method: 'GET',
    path: '/api/system/sessions',
    access: 'admin',
    summary: 'Who is signed in to the desktop, and the open SMB sessions as smbstatus tells them (or that it is not installed: the package to install)',
    status: 200,
    response: systemSessions,
    errors: [],
  }),
  powerState: defineRoute({
    id: 'system.powerState',
    method: 'GET',
    path: '/api/system/power',
    access: 'right:system.power',
    summary: 'The unfinished jobs a restart or shut-down would cut now, and the one under way: what the confirmation names',
    status: 200,
    response: powerState,
    errors: [],
  }),
  power: defineRoute({
    id: 'system.power',
    method: 'POST',
    path: '/api/system/power',
    access: 'right:system.power',
    summary: 'Restarts or shuts the box down a few seconds after the answer, which names the unfinished jobs that will be cut',
    body: powerRequest,
    status: 202,
    response: powerAnswer,
    errors: ['system.power.pending'],
  }),
};
