import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';

/** How long an offer's code is valid, and how many wrong codes the target takes before it stops listening. */
export const offerLifetimeMs = 15 * 60_000;
export const maxWrongCodes = 5;

export interface PairingOffer {
  id: string;
  /** The dataset below which the received datasets go, as the target's administrator chose it. */
  parent: string;
  expiresAt: number;
}

interface StoredOffer extends PairingOffer {
  hash: Buffer;
}

export type Redeemed = { offer: PairingOffer } | { refused: 'expired' | 'wrong-code' | 'too-many-attempts' };

// Base32 without 0/O/1/I/L, so a code read off one screen and typed on another is rarely mistyped.
const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const hash = (code: string) =>
  createHash('sha256')
    .update(code.toUpperCase().replace(/[^A-Z0-9]/g, ''))
    .digest();

/**
 * The target's one-time pairing codes (issue 33). Only a code's hash is kept; a code is compared in
 * constant time against every open offer, is used once, and lapses after 15 minutes. Wrong codes
 * count for the whole store, not per offer (the one asking does not say which offer it means):
 * after `maxWrongCodes` every open offer is void and the administrator makes a new one. Offers
 * live in memory: a restart voids them, which only means asking for a new code.
 */
export class PairingOffers {
  private readonly offers = new Map<string, StoredOffer>();
  private wrong = 0;

  constructor(private readonly clock: Clock) {}

  /** A new offer and its code (16 characters in groups of four), shown once to the administrator. */
  create(parent: string): { offer: PairingOffer; code: string } {
    this.prune();
    const raw = Array.from({ length: 16 }, () => alphabet[randomInt(alphabet.length)]).join('');
    const code = raw.match(/.{4}/g)!.join('-');
    const offer: PairingOffer = { id: randomUUID(), parent, expiresAt: this.clock.now() + offerLifetimeMs };
    this.offers.set(offer.id, { ...offer, hash: hash(code) });
    this.wrong = 0;
    return { offer, code };
  }

  /** Uses a code: its offer on a match (and never again), else why not. */
  redeem(code: string): Redeemed {
    if (this.wrong >= maxWrongCodes) return { refused: 'too-many-attempts' };
    const given = hash(code);
    let found: StoredOffer | undefined;
    // Every offer is compared, matched or not, so the time taken says nothing about the code.
    for (const offer of this.offers.values()) if (timingSafeEqual(offer.hash, given)) found = offer;
    if (found) {
      this.offers.delete(found.id);
      if (found.expiresAt <= this.clock.now()) return { refused: 'expired' };
      const { hash: _, ...offer } = found;
      return { offer };
    }
    this.wrong += 1;
    if (this.wrong >= maxWrongCodes) this.offers.clear();
    return { refused: this.wrong >= maxWrongCodes ? 'too-many-attempts' : 'wrong-code' };
  }

  private prune(): void {
    const now = this.clock.now();
    for (const [id, offer] of this.offers) if (offer.expiresAt <= now) this.offers.delete(id);
  }
}
