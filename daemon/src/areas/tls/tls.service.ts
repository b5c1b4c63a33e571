import { X509Certificate } from 'node:crypto';
import type { CreateAuthorityRequest, CustomCertificateRequest, TlsAuthorityReplacement, TlsSettings } from '../../../../shared/src/api/tls/tls.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { createAuthority, issueServerCertificate, outdatedAuthority, type AuthorityMaterial, type IssuedMaterial } from './authority.ts';
import type { HostIdentity } from '../../host/host-identity.ts';
import { automaticNames, canonicalName } from './box-names.ts';
import { checkCustomCertificate } from './custom-certificate.ts';
import { DeviceCertificates } from './device-certificates.ts';
import { describe, loggedFacts, namesOf } from './pki.ts';
import { inScope } from './scope.ts';
import { isValidLocalDomain } from './local-domain.ts';
import type { TlsStore } from './tls-store.ts';

const dayMs = 24 * 60 * 60 * 1000;
/** Under the 398 days browsers accept for a server certificate. */
export const boxLifetimeDays = 390;
/** The box's certificate is renewed this long before it ends: a quarter of its life to spare. */
export const renewBeforeDays = 90;
export const defaultLocalDomain = 'local';

/** What the server presents: the certificate with its chain, and its key. */
export interface PresentedCertificate {
  source: 'box' | 'custom';
  chainPem: string;
  privateKeyPem: string;
}

export interface TlsServiceDeps {
  store: TlsStore;
  clock: Clock;
  logger: Logger;
  host: () => HostIdentity;
  https: boolean;
  /** Called whenever the presented certificate changes (the server swaps it). */
  presentedChanged: (presented: PresentedCertificate) => void;
  /** Called once the box replaced an authority made before its root was constrained (administrators are told). */
  authorityReplaced?: (replacement: TlsAuthorityReplacement) => void;
}

/** The box's certificate authority, its own certificate, the uploaded one and those issued for other devices. */
export class TlsService {
  private authority: AuthorityMaterial | null = null;
  private box: IssuedMaterial | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  /** Certificates for other devices (their own module, sharing this service's queue and authority). */
  readonly devices: DeviceCertificates;

  constructor(private readonly deps: TlsServiceDeps) {
    this.devices = new DeviceCertificates({
      store: deps.store,
      clock: deps.clock,
      logger: deps.logger,
      ready: () => this.ready(),
      exclusive: (work) => this.exclusive(work),
      authority: () => this.current(),
      sign: (names, lifetimeDays) => this.signed(names, lifetimeDays),
      boxNames: () => this.wantedNames(),
    });
  }

  /** Loads or makes the authority and the box's certificate; later calls wait for the first. */
  ready(): Promise<void> {
    return this.exclusive(async () => {
      if (this.authority && this.box) return;
      this.authority = this.deps.store.readAuthority();
      this.box = this.deps.store.readBox();
      if (!this.authority) await this.replaceAuthority(defaultLocalDomain);
      else if (this.deps.store.holdsRootKey() || outdatedAuthority(this.authority)) await this.replaceOutdated(this.authority);
      else await this.renewIfDue();
    });
  }

  async settings(): Promise<TlsSettings> {
    await this.ready();
    const authority = this.current();
    const custom = this.deps.store.readCustom();
    const presented = this.presented();
    return {
      https: this.deps.https,
      presented: { source: presented.source, certificate: describe(presented.chainPem) },
      authority: {
        root: describe(authority.rootPem),
        intermediate: describe(authority.intermediatePem),
        scope: authority.scope,
        localDomain: authority.localDomain,
        replaced: this.deps.store.settings().replacedAuthority ?? null,
      },
      names: { automatic: this.automatic(), extra: this.deps.store.settings().extraNames },
      box: describe(this.box!.certificatePem),
      custom: custom && describe(custom.certificatePem),
      issued: this.devices.list(),
    };
  }

  async rootPem(): Promise<string> {
    await this.ready();
    return this.current().rootPem;
  }

  /**
   * The root's fingerprint, or null while there is no authority yet: the sign-in page asks on
   * every load and makes none (a box has made its authority before it listens).
   */
  rootFingerprint(): string | null {
    const rootPem = this.authority?.rootPem ?? this.deps.store.rootPem();
    return rootPem && new X509Certificate(rootPem).fingerprint256;
  }

  async createAuthority(request: CreateAuthorityRequest): Promise<TlsSettings> {
    await this.ready();
    await this.exclusive(() => this.replaceAuthority(request.localDomain ?? this.current().localDomain));
    return this.settings();
  }

  async setNames(names: string[]): Promise<TlsSettings> {
    await this.ready();
    this.assertInScope(names);
    await this.exclusive(async () => {
      this.deps.store.writeSettings({ ...this.deps.store.settings(), extraNames: names });
      this.deps.logger.info('box certificate names changed', { logCode: 'tls.namesChanged', component: 'tls', names });
      await this.reissueBox('names changed');
    });
    return this.settings();
  }

  async setCustom(request: CustomCertificateRequest): Promise<TlsSettings> {
    await this.ready();
    const chain = checkCustomCertificate(request.certificate, request.privateKey, this.deps.clock.now());
    const chainPem = chain.map((c) => c.toString()).join('');
    this.deps.store.writeCustom({ certificatePem: chainPem, privateKeyPem: request.privateKey });
    this.deps.logger.info('custom certificate uploaded', { logCode: 'tls.customUploaded', component: 'tls', ...loggedFacts(chainPem) });
    this.deps.presentedChanged(this.presented());
    return this.settings();
  }

  async clearCustom(): Promise<TlsSettings> {
    await this.ready();
    if (this.deps.store.readCustom()) {
      this.deps.store.removeCustom();
      this.deps.logger.info('custom certificate removed', { logCode: 'tls.customRemoved', component: 'tls' });
      this.deps.presentedChanged(this.presented());
    }
    return this.settings();
  }

  /**
   * A server certificate for names inside the scope, with the intermediate as its chain; the
   * box keeps nothing of it. The reverse proxy gets its hosts' certificates here too.
   */
  async issueServerCertificate(names: string[], lifetimeDays: number): Promise<IssuedMaterial & { chainPem: string }> {
    await this.ready();
    return this.exclusive(() => this.signed(names, lifetimeDays));
  }

  /** Signs inside exclusive(): an authority replaced meanwhile would leave the certificate under a root nobody trusts any more. */
  private async signed(names: string[], lifetimeDays: number): Promise<IssuedMaterial & { chainPem: string }> {
    this.assertInScope(names);
    const authority = this.current();
    const issued = await issueServerCertificate(authority, names, { now: this.deps.clock.now(), lifetimeDays });
    return { ...issued, chainPem: authority.intermediatePem };
  }

  /** Whether a certificate was signed by the authority's current intermediate (a replaced authority's are not trusted). */
  fromCurrentAuthority(certificatePem: string): boolean {
    const cert = new X509Certificate(certificatePem);
    const intermediate = new X509Certificate(this.current().intermediatePem);
    return cert.checkIssued(intermediate) && cert.verify(intermediate.publicKey);
  }

  /** The scheduled check: renews the box's certificate when due or when the box's own names changed; drops back from an ended upload. */
  async maintain(): Promise<void> {
    // Nothing to keep up before anything was made (a development daemon nobody asked yet).
    if (!this.authority && this.deps.store.rootPem() === null) return;
    await this.ready();
    const before = this.presented();
    const renewed = await this.exclusive(() => this.renewIfDue());
    const after = this.presented();
    if (!renewed && after.source !== before.source) {
      this.deps.logger.info('the uploaded certificate ended: the box presents its own', { component: 'tls' });
      this.deps.presentedChanged(after);
    }
  }

  /** The uploaded certificate while it is valid, else the box's own. Call after ready(). */
  presented(): PresentedCertificate {
    const custom = this.deps.store.readCustom();
    const now = this.deps.clock.now();
    if (custom) {
      const leaf = new X509Certificate(custom.certificatePem);
      if (Date.parse(leaf.validFrom) <= now && now < Date.parse(leaf.validTo))
        return { source: 'custom', chainPem: custom.certificatePem, privateKeyPem: custom.privateKeyPem };
    }
    const box = this.box!;
    return { source: 'box', chainPem: box.certificatePem + this.current().intermediatePem, privateKeyPem: box.privateKeyPem };
  }

  private current(): AuthorityMaterial {
    if (!this.authority) throw new Error('the TLS authority is not loaded');
    return this.authority;
  }

  private automatic(): string[] {
    const authority = this.current();
    return automaticNames(this.deps.host(), authority.localDomain, authority.scope);
  }

  private wantedNames(): string[] {
    const scope = this.current().scope;
    const extra = this.deps.store.settings().extraNames.filter((n) => inScope(n, scope));
    return [...new Set([...this.automatic(), ...extra])];
  }

  private assertInScope(names: string[]): void {
    const scope = this.current().scope;
    const outside = names.find((name) => !inScope(name, scope));
    if (outside !== undefined) throw new ProblemError('tls.name.out_of_scope', { name: outside });
  }

  /**
   * An authority made before the root carried the scope's name constraints (or whose root key was
   * kept) could vouch for any name on every device that trusts it: it is replaced, never widened or
   * kept, and the replacement is remembered so the web asks to remove the old root and trust the new.
   */
  private async replaceOutdated(old: AuthorityMaterial): Promise<void> {
    const previousRootFingerprint = new X509Certificate(old.rootPem).fingerprint256;
    this.deps.logger.warn('certificate authority made before name constraints on its root: replacing it', {
      component: 'tls',
      previousRootFingerprint,
    });
    // A local domain that today's rules refuse would keep the box from starting: the default then.
    const localDomain = isValidLocalDomain(old.localDomain) ? old.localDomain : defaultLocalDomain;
    await this.replaceAuthority(localDomain);
    const replacement = { replacedAt: new Date(this.deps.clock.now()).toISOString(), previousRootFingerprint };
    this.deps.store.writeSettings({ ...this.deps.store.settings(), replacedAuthority: replacement });
    this.deps.authorityReplaced?.(replacement);
  }

  private async replaceAuthority(localDomain: string): Promise<void> {
    const authority = await createAuthority({ now: this.deps.clock.now(), hostname: this.deps.host().hostname, localDomain });
    this.deps.store.writeAuthority(authority);
    this.authority = authority;
    this.deps.logger.info('certificate authority replaced', {
      logCode: 'tls.authorityReplaced',
      component: 'tls',
      localDomain,
      scope: authority.scope,
      ...loggedFacts(authority.rootPem),
    });
    await this.reissueBox('new authority');
  }

  private async reissueBox(reason: string): Promise<void> {
    const box = await issueServerCertificate(this.current(), this.wantedNames(), { now: this.deps.clock.now(), lifetimeDays: boxLifetimeDays });
    this.deps.store.writeBox(box);
    this.box = box;
    this.deps.logger.info('box certificate issued', { logCode: 'tls.boxIssued', component: 'tls', reason, ...loggedFacts(box.certificatePem) });
    this.deps.presentedChanged(this.presented());
  }

  /** Answers whether it reissued. */
  private async renewIfDue(): Promise<boolean> {
    const box = this.box;
    if (!box) {
      await this.reissueBox('missing');
      return true;
    }
    const cert = new X509Certificate(box.certificatePem);
    const issuedByCurrent = cert.checkIssued(new X509Certificate(this.current().intermediatePem));
    const due = Date.parse(cert.validTo) - this.deps.clock.now() < renewBeforeDays * dayMs;
    // Compared in one spelling each, or an IPv6 address would be a change of names at every start.
    const spelled = (names: string[]) => [...new Set(names.map(canonicalName))].sort().join(' ');
    const have = spelled(namesOf(cert));
    const want = spelled(this.wantedNames());
    if (!due && have === want && issuedByCurrent) return false;
    await this.reissueBox(due ? 'renewal' : 'names changed');
    return true;
  }

  /** One change at a time: the files and the presented certificate stay consistent. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
