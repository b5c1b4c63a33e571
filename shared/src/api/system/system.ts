import Joi from 'joi';
import { defineRoute } from '../route.ts';

export type Language = 'en' | 'de';
export const languages: readonly Language[] = ['en', 'de'];

export interface HealthResponse {
  status: 'ok';
  version: string;
  uptimeSeconds: number;
}

export interface SetupInfo {
  product: string;
  version: string;
  mode: 'development' | 'box' | 'installer';
  /** System language: the sign-in page's language when the browser's is not offered. */
  language: Language;
  /** ISO 3166 country code, or null to follow each user's language. */
  region: string | null;
  /** The box's IANA time zone (System, Time): the desktop's clock and dates show the box's time in it. */
  timeZone: string;
  /** First-run setup still applies: the box has no user yet, or its first administrator still has the initial random password. */
  firstRun: boolean;
  /** The box runs from the installer medium. */
  installer: boolean;
  /** No administrator exists yet: the first page asks for the one-time setup code (POST /api/setup). */
  setupCode: boolean;
  /** The name the owner gave the box at setup; null before. */
  boxName: string | null;
  /** SHA-256 fingerprint of the box's root certificate (GET /api/system/tls/root-ca.crt), for people to compare. */
  rootCaFingerprint: string | null;
}

/** The box's regional settings (System, Region): the sign-in page's language and new users' default. */
export interface SystemRegion {
  language: Language;
  /** ISO 3166-1 alpha-2 country code (formats of dates and numbers), or null to follow each user's language. */
  region: string | null;
}

export const defaultRegion: SystemRegion = { language: 'en', region: null };

const languageSchema = Joi.string()
  .valid(...languages)
  .required();
const regionCodeSchema = Joi.string()
  .pattern(/^[A-Z]{2}$/)
  .allow(null)
  .required();

export const systemRegion = Joi.object<SystemRegion, true>({ language: languageSchema, region: regionCodeSchema }).id('SystemRegion');

export const healthResponse = Joi.object<HealthResponse, true>({
  status: Joi.string().valid('ok').required(),
  version: Joi.string().required(),
  uptimeSeconds: Joi.number().min(0).required(),
}).id('HealthResponse');

export const setupInfo = Joi.object<SetupInfo, true>({
  product: Joi.string().required(),
  version: Joi.string().required(),
  mode: Joi.string().valid('development', 'box', 'installer').required(),
  language: languageSchema,
  region: regionCodeSchema,
  timeZone: Joi.string().required(),
  firstRun: Joi.boolean().required(),
  installer: Joi.boolean().required(),
  setupCode: Joi.boolean().required(),
  boxName: Joi.string().allow(null).required(),
  rootCaFingerprint: Joi.string().allow(null).required(),
}).id('SetupInfo');

export const systemRoutes = {
  health: defineRoute({
    id: 'system.health',
    method: 'GET',
    path: '/api/health',
    access: 'public',
    summary: 'Whether the daemon is up',
    status: 200,
    response: healthResponse,
    errors: [],
  }),
  setup: defineRoute({
    id: 'system.setup',
    method: 'GET',
    path: '/api/setup',
    access: 'public',
    summary: 'Product, version, language, region and time zone for the sign-in page and desktop, and whether setup or installer mode applies',
    status: 200,
    response: setupInfo,
    errors: [],
  }),
  region: defineRoute({
    id: 'system.region',
    method: 'GET',
    path: '/api/system/region',
    access: 'admin',
    summary: "The box's language and region; GET /api/setup carries both for the sign-in page",
    status: 200,
    response: systemRegion,
    errors: [],
  }),
  setRegion: defineRoute({
    id: 'system.setRegion',
    method: 'PUT',
    path: '/api/system/region',
    access: 'admin',
    summary: 'Sets the box language (en or de: the sign-in page and new users) and region (ISO 3166 country code, or null to follow each user)',
    body: systemRegion,
    status: 200,
    response: systemRegion,
    errors: [],
  }),
};
