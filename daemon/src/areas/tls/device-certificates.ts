import { X509Certificate } from 'node:crypto';
import type { IssueCertificateRequest, IssuedCertificate, IssuedCertificateFiles } from '../../../../shared/src/api/tls/tls.ts';
import { tlsLimits } from '../../../../shared/src/api/tls/tls.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { intermediateSigner, type AuthorityMaterial, type IssuedMaterial } from './authority.ts';
import { boxNameAmong } from './box-names.ts';
import { buildCrl } from './crl.ts';
import { describe, loggedFacts } from './pki.ts';
import type { TlsStore } from './tls-store.ts';

export interface DeviceCertificatesDeps {
  store: TlsStore;
  clock: Clock;
  logger: Logger;
  /** Loads or makes the authority first. */
  ready(): Promise<void>;
  /** One change at a time, in the same queue as the service's own changes (an authority replaced meanwhile). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  authority(): AuthorityMaterial;
  /** Signs for names inside the scope; call inside exclusive(). */
  sign(names: string[], lifetimeDays: number): Promise<IssuedMaterial & { chainPem: string }>;
  /** The names of the box's own certificate. */
  boxNames(): string[];
}

/** Certificates the authority issues for other devices of the house: never for the box's names, listed without keys, revocable. */
export class DeviceCertificates {
  constructor(private readonly deps: DeviceCertificatesDeps) {}

  list(): IssuedCertificate[] {
    const revoked = new Map((this.deps.store.settings().revoked ?? []).map((r) => [r.serial, r.revokedAt]));
    return this.deps.store.listIssued().map((r) => {
      const info = describe(r.certificatePem);
      return { id: r.id, createdAt: r.createdAt, ...info, revokedAt: revoked.get(info.serial) ?? null };
    });
  }

  async issue(request: IssueCertificateRequest): Promise<IssuedCertificateFiles> {
    await this.deps.ready();
    const { store } = this.deps;
    const { id, issued } = await this.deps.exclusive(async () => {
      // The box's own names are the box's: a device certificate for them would let that device pose as the box.
      const own = boxNameAmong(request.names, this.deps.boxNames());
      if (own !== undefined) throw new ProblemError('tls.name.box_own', { name: own });
      const issued = await this.deps.sign(request.names, request.lifetimeDays ?? tlsLimits.lifetimeDaysMax);
      const settings = store.settings();
      store.writeSettings({ ...settings, nextIssuedId: settings.nextIssuedId + 1 });
      store.writeIssued({ id: settings.nextIssuedId, createdAt: new Date(this.deps.clock.now()).toISOString(), certificatePem: issued.certificatePem });
      return { id: settings.nextIssuedId, issued };
    });
    this.deps.logger.info('certificate issued for a device', { logCode: 'tls.deviceIssued', component: 'tls', id, ...loggedFacts(issued.certificatePem) });
    return { id, certificate: issued.certificatePem, chain: issued.chainPem, privateKey: issued.privateKeyPem, info: describe(issued.certificatePem) };
  }

  async remove(id: number): Promise<void> {
    if (!this.deps.store.removeIssued(id)) throw new ProblemError('tls.issued.not_found', { id });
    this.deps.logger.info('issued certificate removed from the list', { logCode: 'tls.deviceRemoved', component: 'tls', id });
  }

  /** Puts an issued certificate on the intermediate's revocation list (GET .../revoked.crl); it stays listed, marked revoked. */
  async revoke(id: number): Promise<void> {
    await this.deps.ready();
    await this.deps.exclusive(async () => {
      const record = this.deps.store.readIssued(id);
      if (!record) throw new ProblemError('tls.issued.not_found', { id });
      const serial = new X509Certificate(record.certificatePem).serialNumber;
      const settings = this.deps.store.settings();
      const revoked = settings.revoked ?? [];
      if (revoked.some((r) => r.serial === serial)) return;
      this.deps.store.writeSettings({ ...settings, revoked: [...revoked, { serial, revokedAt: new Date(this.deps.clock.now()).toISOString() }] });
      this.deps.logger.info('issued certificate revoked', { logCode: 'tls.deviceRevoked', component: 'tls', id, serial });
    });
  }

  /** The current intermediate's revocation list in PEM, signed afresh on each request. */
  async revocationList(): Promise<string> {
    await this.deps.ready();
    return buildCrl(intermediateSigner(this.deps.authority()), this.deps.store.settings().revoked ?? [], this.deps.clock.now());
  }

  async pem(id: number): Promise<string> {
    await this.deps.ready();
    const record = this.deps.store.readIssued(id);
    if (!record) throw new ProblemError('tls.issued.not_found', { id });
    return record.certificatePem + this.deps.authority().intermediatePem;
  }
}
