import Joi from 'joi';
import { newPassword } from '../identity/auth.ts';
import { defineRoute } from '../route.ts';
import { languages, type Language } from './system.ts';
import { timeZonePattern } from './time.ts';
import { accountName } from '../identity/users.ts';

/**
 * First-run setup of a box installed from the package: no administrator exists yet, so the first
 * page asks for the one-time code the daemon wrote to the journal and to a root-only file.
 */
export interface FirstRunRequest {
  /** The setup code, with or without its dash; letters in either case. */
  code: string;
  username: string;
  password: string;
  /** Shown on the sign-in page and in the desktop's title. */
  boxName: string;
  language: Language;
  /** ISO 3166-1 alpha-2 country code, or null to follow each user's language. */
  region: string | null;
  /** IANA zone of the box (the page offers the browser's); absent keeps the box's zone. */
  timeZone?: string;
}

export interface FirstRunResult {
  username: string;
}

export const firstRunRequest = Joi.object<FirstRunRequest, true>({
  code: Joi.string().max(64).required(),
  username: accountName().required(),
  password: newPassword().required(),
  boxName: Joi.string().trim().min(1).max(64).required(),
  language: Joi.string()
    .valid(...languages)
    .required(),
  region: Joi.string()
    .pattern(/^[A-Z]{2}$/)
    .allow(null)
    .required(),
  timeZone: Joi.string().max(64).pattern(timeZonePattern),
}).id('FirstRunRequest');

/** The zones the box's time zone database knows: the same list the Control Panel's Time section offers. */
export interface FirstRunZones {
  zones: string[];
}

export const firstRunZones = Joi.object<FirstRunZones, true>({ zones: Joi.array().items(Joi.string()).required() }).id('FirstRunZones');

export const firstRunResult = Joi.object<FirstRunResult, true>({ username: Joi.string().required() }).id('FirstRunResult');

export const firstRunRoutes = {
  zones: defineRoute({
    id: 'system.firstRunZones',
    method: 'GET',
    path: '/api/setup/time-zones',
    access: 'public',
    summary: "The time zones the box knows, for the first-run page's choice",
    description:
      'Public only while the box has no user (GET /api/setup answers `setupCode: true`), as the first-run page needs it before anyone can sign in; then setup.done, and administrators read the list in GET /api/system/time.',
    status: 200,
    response: firstRunZones,
    errors: ['setup.done'],
  }),
  complete: defineRoute({
    id: 'system.firstRun',
    method: 'POST',
    path: '/api/setup',
    access: 'public',
    csrfExempt: true,
    summary: 'Creates the first administrator of a box installed without the installer',
    description:
      'Only while the box has no user (GET /api/setup answers `setupCode: true`). The one-time code is written to the journal and to `setup-code` in the data directory (root only) when the daemon starts; it ends when used, an hour after it was made, or after 10 wrong codes (a restart of the service makes a new one). Then sign in with the name and password given.',
    body: firstRunRequest,
    status: 201,
    response: firstRunResult,
    errors: [
      'setup.code.invalid',
      'setup.code.expired',
      'setup.done',
      'auth.origin.invalid',
      'auth.password.weak',
      'users.username.reserved',
      'system.zone.unknown',
    ],
  }),
};
