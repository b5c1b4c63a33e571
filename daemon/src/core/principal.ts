/** The signed-in caller of a request, read fresh on every request so rights and deactivation apply at once. */
export interface Principal {
  id: number;
  username: string;
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
