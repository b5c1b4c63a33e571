import { readFileSync } from 'node:fs';
import path from 'node:path';
import Joi from 'joi';
import { installPath } from '../core/install-paths.ts';
import type { LogLevel } from '../core/logger.ts';

/** `installer`: the installation medium's daemon, which answers only the installer (daemon/src/areas/installer). */
export type Mode = 'development' | 'box' | 'installer';
export type { LogLevel };

export interface Config {
  mode: Mode;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  dataDir: string;
  /** Password of the first administrator in development mode; else a random one is made. */
  adminPassword: string | null;
  logLevel: LogLevel;
  /** Where the built web desktop lives; null serves no desktop (API-only tests). */
  webDir: string | null;
  /** Check every JSON answer against its route's schema (tests), so the OpenAPI document cannot drift. */
  validateResponses: boolean;
  /** Write log entries as JSON lines to stdout as well as to the log store. */
  logToConsole: boolean;
  /** Serve HTTPS with the box's certificate: always on a box; in development mode only when `BOX_HTTPS=true`. */
  https: boolean;
  /**
   * A JSON file of extra Ed25519 public keys trusted for signed indexes (store catalogs, update
   * channels): `[{ "id": "...", "publicKey": "-----BEGIN PUBLIC KEY-----..." }]`. Development mode
   * only (tests sign with their own key); a box trusts only the keys built into the daemon.
   */
  trustedKeysFile: string | null;
  /**
   * The box's own update channel instead of the project's (docs/updates.md): a mirror, or a
   * channel its owner builds. Read from the root-owned config file only, never the environment.
   */
  updateChannelUrl: string | null;
  /** Extra Ed25519 keys (the `trustedKeysFile` format) trusted for update channels and files only, in every mode; config file only. */
  updateKeysFile: string | null;
  /** The system image (a tar file) the installation medium carries; installer mode writes it to the target disk. */
  installerImage: string;
}

export const defaultPort = 7484;

const schema = Joi.object<Config, true>({
  mode: Joi.string().valid('development', 'box', 'installer').required(),
  host: Joi.string().hostname().required(),
  port: Joi.number().integer().min(0).max(65535).required(),
  dataDir: Joi.string().min(1).required(),
  adminPassword: Joi.string().min(1).allow(null).required(),
  logLevel: Joi.string().valid('debug', 'info', 'warn', 'error').required(),
  webDir: Joi.string().allow(null).required(),
  validateResponses: Joi.boolean().required(),
  logToConsole: Joi.boolean().required(),
  https: Joi.boolean().allow(null).required(),
  trustedKeysFile: Joi.string().min(1).allow(null).required(),
  updateChannelUrl: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .allow(null)
    .required(),
  updateKeysFile: Joi.string().min(1).allow(null).required(),
  installerImage: Joi.string().min(1).required(),
});

/** Keys of the optional JSON config file; environment variables win over it. */
const fileKeys = ['mode', 'host', 'port', 'dataDir', 'logLevel', 'updateChannelUrl', 'updateKeysFile'] as const;

const envKeys: Record<string, keyof Config> = {
  BOX_MODE: 'mode',
  BOX_HOST: 'host',
  BOX_PORT: 'port',
  BOX_DATA_DIR: 'dataDir',
  BOX_ADMIN_PASSWORD: 'adminPassword',
  BOX_LOG_LEVEL: 'logLevel',
  BOX_HTTPS: 'https',
  BOX_TRUSTED_KEYS: 'trustedKeysFile',
  BOX_INSTALLER_IMAGE: 'installerImage',
};

export class ConfigError extends Error {}

/**
 * Builds the frozen configuration from defaults, the optional config file (`BOX_CONFIG`),
 * the environment and explicit overrides (tests), in rising order of precedence.
 * This is the only reader of process.env in the daemon.
 */
export function loadConfig(overrides: Partial<Config> = {}, env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const raw: Record<string, unknown> = {
    mode: 'development',
    host: '127.0.0.1',
    port: defaultPort,
    dataDir: './var',
    adminPassword: null,
    logLevel: 'info',
    webDir: installPath('daemon/public'),
    validateResponses: false,
    logToConsole: true,
    https: null,
    trustedKeysFile: null,
    updateChannelUrl: null,
    updateKeysFile: null,
    installerImage: '/usr/lib/cellar/system-image.tar',
  };
  const file = env.BOX_CONFIG;
  if (file) Object.assign(raw, readConfigFile(file));
  for (const [name, key] of Object.entries(envKeys)) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  Object.assign(raw, overrides);
  const { value, error } = schema.validate(raw, { convert: true, abortEarly: false });
  if (error) {
    const reverse = Object.fromEntries(Object.entries(envKeys).map(([k, v]) => [v, k]));
    const lines = error.details.map((d) => {
      const key = String(d.path[0]);
      return `  ${reverse[key] ?? key}: ${d.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (overrides.dataDir === undefined && !env.BOX_DATA_DIR) {
    // The medium's daemon keeps its state in memory: nothing of it belongs on the installed box.
    if (value.mode === 'box') value.dataDir = '/var/lib/cellar';
    if (value.mode === 'installer') value.dataDir = '/run/cellar-installer';
  }
  value.dataDir = path.resolve(value.dataDir);
  value.https ??= value.mode === 'box';
  if (value.mode === 'box' && value.trustedKeysFile !== null) {
    throw new ConfigError('Invalid configuration:\n  BOX_TRUSTED_KEYS: extra signing keys are for development mode only');
  }
  return Object.freeze(value);
}

function readConfigFile(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`Cannot read the config file ${file}: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`The config file ${file} must hold a JSON object`);
  }
  const unknown = Object.keys(parsed).filter((k) => !(fileKeys as readonly string[]).includes(k));
  if (unknown.length) throw new ConfigError(`The config file ${file} has unknown keys: ${unknown.join(', ')}`);
  return parsed as Record<string, unknown>;
}
