import type { Language } from '../../../shared/src/api/system/system.ts';

/**
 * The signed-in caller of a request, resolved on every request (through a cache that any
 * database write clears) so rights and deactivation apply at once. It carries what the
 * session's UserInfo shows, so reading the session costs no query.
 */
export interface Principal {
  id: number;
  username: string;
  displayName: string;
  language: Language;
  totpEnabled: boolean;
  admin: boolean;
  /** Special rights of the permission catalog the user holds (administrators hold all). */
  rights: ReadonlySet<string>;
  /** The express-session id this request came with. */
  sessionId: string;
}

/** Looks up an active user by id; null for an absent or deactivated one. */
export type PrincipalResolver = (userId: number) => Promise<Omit<Principal, 'sessionId'> | null>;

export function holdsRight(principal: Principal, right: string): boolean {
  return principal.admin || principal.rights.has(right);
}
