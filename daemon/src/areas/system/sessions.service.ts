import type { SignedInUser, SmbSessions, SystemSessions } from '../../../../shared/src/api/system/overview.ts';

export interface SessionsDeps {
  /** The live desktop sessions of the daemon: whose, and since when. */
  signedIn(): Promise<{ userId: number; signedInAt: number | null }[]>;
  users(ids: number[]): Promise<{ id: number; username: string; displayName: string }[]>;
  /** What the host tells of open SMB sessions. */
  smb(): Promise<SmbSessions>;
}

/** Who uses the box now: signed in to the desktop (one line per user), and over SMB. */
export class SessionsService {
  constructor(private readonly deps: SessionsDeps) {}

  async get(): Promise<SystemSessions> {
    const [live, smb] = await Promise.all([this.deps.signedIn(), this.deps.smb()]);
    const perUser = new Map<number, { sessions: number; since: number | null }>();
    for (const s of live) {
      const seen = perUser.get(s.userId) ?? { sessions: 0, since: null };
      seen.sessions += 1;
      if (s.signedInAt !== null && (seen.since === null || s.signedInAt < seen.since)) seen.since = s.signedInAt;
      perUser.set(s.userId, seen);
    }
    const users = await this.deps.users([...perUser.keys()]);
    const desktop: SignedInUser[] = users
      .map((u) => {
        const seen = perUser.get(u.id)!;
        return {
          userId: u.id,
          username: u.username,
          displayName: u.displayName,
          sessions: seen.sessions,
          since: seen.since === null ? null : new Date(seen.since).toISOString(),
        };
      })
      .sort((a, b) => a.username.localeCompare(b.username));
    return { desktop, smb };
  }
}
