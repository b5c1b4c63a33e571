import { createHash, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { Op, type Sequelize } from 'sequelize';
import type { RecoveryCodes, TotpEnrollment } from '../../../../../shared/src/api/identity/auth.ts';
import type { Logger } from '../../../core/logger.ts';
import { product } from '../../../core/product.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { TotpCipher } from './totp-cipher.ts';
import type { AuthModels } from './totp.model.ts';

export interface TotpDeps {
  db: Sequelize;
  models: AuthModels;
  logger: Logger;
  /** Seals the secrets at rest (key file of the data directory). */
  cipher: TotpCipher;
}

const recoveryCodeCount = 10;
const recoveryAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Codes of the neighbouring 30-second steps count too, for clocks that drift a little. */
const toleranceSeconds = 30;

export type CodeCheck = 'ok' | 'invalid' | 'reused';

function normalise(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/**
 * Recovery codes carry 50 random bits each and every try is throttled, so a plain SHA-256
 * (salted with the user id) suffices; bcrypt over 10 codes per try would cost seconds.
 */
function hashRecoveryCode(userId: number, code: string): string {
  return createHash('sha256')
    .update(`${userId}:${normalise(code)}`)
    .digest('hex');
}

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => recoveryAlphabet[randomInt(recoveryAlphabet.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** TOTP enrolment, code checks with replay refusal, and single-use recovery codes. Secrets are never logged. */
export class TotpService {
  constructor(private readonly deps: TotpDeps) {}

  async enabled(userId: number): Promise<boolean> {
    return (await this.deps.models.totp.count({ where: { userId, enabled: true } })) > 0;
  }

  async enabledUserIds(): Promise<Set<number>> {
    return new Set((await this.deps.models.totp.findAll({ where: { enabled: true }, attributes: ['userId'] })).map((r) => r.userId));
  }

  /**
   * Seals secrets stored in plain text (rows from before encryption at rest). Runs once per daemon
   * start rather than as a migration, because migrations have no configuration and so no key file;
   * idempotent: a sealed row is left alone, so a second start changes nothing.
   */
  async sealPlainSecrets(): Promise<number> {
    let sealed = 0;
    for (const row of await this.deps.models.totp.findAll()) {
      if (TotpCipher.isSealed(row.secret)) continue;
      // Conditional on the plain value: a row re-enrolled meanwhile is not overwritten.
      const [changed] = await this.deps.models.totp.update(
        { secret: this.deps.cipher.seal(row.userId, row.secret) },
        { where: { userId: row.userId, secret: row.secret } },
      );
      sealed += changed;
    }
    if (sealed > 0) this.deps.logger.info('TOTP secrets sealed at rest', { component: 'auth', count: sealed });
    return sealed;
  }

  async enroll(userId: number, username: string): Promise<TotpEnrollment> {
    if (await this.enabled(userId)) throw new ProblemError('auth.totp.already_enabled');
    const secret = generateSecret();
    await this.deps.models.totp.upsert({
      userId,
      secret: this.deps.cipher.seal(userId, secret),
      enabled: false,
      lastStep: null,
      updatedAt: new Date().toISOString(),
    });
    const uri = generateURI({ issuer: product.name, label: username, secret });
    // Loaded on enrolment only, which is rare, rather than with every daemon start.
    const { default: QRCode } = await import('qrcode');
    const qrCode = await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 256 });
    this.deps.logger.info('TOTP enrolment started', { logCode: 'auth.totpEnrolmentStarted', component: 'auth', userId });
    return { secret, uri, qrCode };
  }

  async confirm(userId: number, code: string): Promise<RecoveryCodes> {
    const row = await this.deps.models.totp.findByPk(userId);
    if (row?.enabled) throw new ProblemError('auth.totp.already_enabled');
    if (!row) throw new ProblemError('auth.totp.not_enrolling');
    if ((await this.check(userId, code)) !== 'ok') throw new ProblemError('auth.totp.invalid');
    const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
    await this.deps.db.transaction(async (transaction) => {
      await this.deps.models.totp.update({ enabled: true, updatedAt: new Date().toISOString() }, { where: { userId }, transaction });
      await this.deps.models.recoveryCodes.destroy({ where: { userId }, transaction });
      await this.deps.models.recoveryCodes.bulkCreate(
        codes.map((c) => ({ userId, codeHash: hashRecoveryCode(userId, c), usedAt: null })),
        { transaction },
      );
    });
    this.deps.logger.info('TOTP turned on', { logCode: 'auth.totpOn', component: 'auth', userId });
    return { codes };
  }

  /**
   * Checks a 6-digit code against the user's secret (pending or enabled). An accepted code's
   * time step is remembered: the same or an earlier step is refused from then on.
   */
  async check(userId: number, code: string): Promise<CodeCheck> {
    const row = await this.deps.models.totp.findByPk(userId);
    if (!row || !/^\d{6}$/.test(code)) return 'invalid';
    const secret = this.deps.cipher.open(userId, row.secret);
    if (secret === null) {
      // Tampered, sealed under another key, or (before the start-up sealing) plain: no code can match.
      this.deps.logger.warn('TOTP secret does not open; code refused', { component: 'auth', userId });
      return 'invalid';
    }
    const result = await verify({ secret, token: code, epochTolerance: toleranceSeconds });
    // The functional verify answers the HOTP shape too; only the TOTP one has the time step.
    if (!result.valid || !('timeStep' in result)) return 'invalid';
    if (row.lastStep !== null && result.timeStep <= row.lastStep) return 'reused';
    // Conditional update: of two requests racing with one code, only one wins.
    const [changed] = await this.deps.models.totp.update(
      { lastStep: result.timeStep },
      { where: { userId, [Op.or]: [{ lastStep: null }, { lastStep: { [Op.lt]: result.timeStep } }] } },
    );
    return changed === 1 ? 'ok' : 'reused';
  }

  /** Uses up a recovery code; false when it is wrong or was used. */
  async useRecoveryCode(userId: number, code: string): Promise<boolean> {
    const [changed] = await this.deps.models.recoveryCodes.update(
      { usedAt: new Date().toISOString() },
      { where: { userId, codeHash: hashRecoveryCode(userId, code), usedAt: null } },
    );
    if (changed > 0) this.deps.logger.info('recovery code used', { logCode: 'auth.recoveryCodeUsed', component: 'auth', userId });
    return changed > 0;
  }

  async recoveryCodesLeft(userId: number): Promise<number> {
    return this.deps.models.recoveryCodes.count({ where: { userId, usedAt: null } });
  }

  async disable(userId: number): Promise<void> {
    await this.deps.db.transaction(async (transaction) => {
      await this.deps.models.totp.destroy({ where: { userId }, transaction });
      await this.deps.models.recoveryCodes.destroy({ where: { userId }, transaction });
    });
    this.deps.logger.info('TOTP turned off', { logCode: 'auth.totpOff', component: 'auth', userId });
  }
}
