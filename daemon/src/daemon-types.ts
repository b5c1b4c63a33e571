import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Sequelize } from 'sequelize';
import type { SqliteSessionStore } from './areas/identity/auth/session-store.ts';
import type { BackupHostOptions } from './areas/backup-part.ts';
import type { LogArchiveLocation } from './areas/logs/logs.service.ts';
import type { StorageOptions } from './areas/storage/storage.area.ts';
import type { ProxyOptions } from './areas/proxy/proxy.area.ts';
import type { ReplicationOptions } from './areas/replication/replication.area.ts';
import type { SystemHostOptions } from './areas/system/system.area.ts';
import type { UpdatesOptions } from './areas/updates/updates.area.ts';
import type { InstallerAreaOptions } from './areas/installer/installer.area.ts';
import type { HostIdentity } from './host/host-identity.ts';
import type { Config } from './config/config.ts';
import type { Clock } from './core/clock.ts';
import type { JobEngine } from './core/jobs/job-engine.ts';
import type { Logger } from './core/logger.ts';
import type { Scheduler } from './core/scheduler.ts';
import type { TopicsHub } from './core/topics/topics-hub.ts';
import type { FileServicesDeployment } from './host/file-services/file-services.ts';

/** What createDaemon builds: the parts tests and main.ts reach, and its start and stop. */
export interface Daemon {
  config: Readonly<Config>;
  app: Express;
  server: Server;
  logger: Logger;
  db: Sequelize;
  /** The live topics hub: areas register their topic providers and publish here. */
  topics: TopicsHub;
  /** Sessions in SQLite; ending one closes its sockets. */
  sessionStore: SqliteSessionStore;
  /** The jobs engine: areas register their job kinds here (tests register test-only kinds). */
  jobs: JobEngine;
  /** Periodic work of every area. */
  scheduler: Scheduler;
  /** The address the server listens on once started (port 0 becomes the real port). */
  url(): string;
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface DaemonOptions {
  config?: Partial<Config>;
  env?: NodeJS.ProcessEnv;
  /** The time the daemon goes by (retention, expiry); tests move it. */
  clock?: Clock;
  /** Log store seams for tests: an archive directory before pools exist, a small export limit. */
  logs?: { archive?: LogArchiveLocation; exportLimit?: number };
  /**
   * Storage seams: `apply: true` runs ZFS changes even in development mode (storage system tests
   * against zfs-fuse); loop devices, a small minimum disk size, the pools' mount root and import scan folders.
   */
  storage?: Partial<StorageOptions>;
  /**
   * Whether users' file reads and writes run in worker processes with their own uid, gid and
   * groups; on by default on a box (accounts are real there). Needs root; tests with real accounts turn it on.
   */
  files?: { userIdentity?: boolean };
  /**
   * Apps seams: `accounts: true` creates apps' system accounts even in development mode (system
   * tests as root); app data goes on ZFS datasets wherever storage applies, in folders otherwise;
   * `backendLimits`: other limits for backends than the house's (a test's small task limit).
   */
  apps?: { accounts?: boolean; backendLimits?: import('./host/app-backends/backend-limits.ts').BackendLimitValues };
  /** Store seams: the project catalogs (a loopback git server in tests) and the fetch time limit. */
  store?: import('./areas/store/store.area.ts').StoreOptions;
  /** A development daemon that waits for its owner as a box from the package does: no administrator, a setup code. */
  firstRunSetup?: boolean;
  /** File services seam: apply ACLs and configurations for real even in development mode, with this deployment (system tests as root). */
  fileServices?: { deployment: FileServicesDeployment };
  /**
   * Called once a restore answered: run-daemon.ts builds the daemon again in-process (docs/backup-format.md);
   * after an update changed the box's package or returned to a snapshot the process exits 75 and systemd
   * starts the new code (docs/updates.md). Tests count the calls.
   */
  restart?: (reason?: 'restore' | 'package' | 'snapshot') => void;
  /** Backup seams: host effects of a restore, the SSH host key folder, Samba's smb.conf (root system tests). */
  backup?: Partial<BackupHostOptions>;
  /** System seams: a root folder for the zone files and chrony's configuration, the power delay, the network root and namespace. */
  system?: SystemHostOptions;
  /** TLS seams: the host name and addresses the authority's scope and the box's certificate are made for; a file standing in for the box's screen (/dev/console), or null for none (tests). */
  tls?: { host?: () => HostIdentity; screen?: string | null };
  /** Reverse proxy seams: nginx's ports and address (loopback in tests), a network namespace for nftables. */
  proxy?: ProxyOptions;
  /** Updates seams: apply in development mode, a Debian root for apt and dpkg, system datasets, a test channel (root system tests). */
  updates?: Partial<UpdatesOptions>;
  /** Where the first-run setup code is told besides its file (default: standard output); the installer's own daemon tells nobody. */
  announceSetupCode?: (line: string) => void;
  /** Installer seams: host effects, loop devices as targets, the mDNS interface, the claim's lifetime, the registry to test. */
  installer?: InstallerAreaOptions;
  /** Replication tasks' seams: the pairing lookup and the send engine (tests: a test pairing and a local send). */
  replicationTasks?: import('./replication-tasks-step.ts').ReplicationSeams;
  /** Replication seams: the account pairing keys sign in as, the SSH host key and port told to a source. */
  replication?: ReplicationOptions;
}
