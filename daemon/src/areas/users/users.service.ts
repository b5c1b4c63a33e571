import type { Principal } from '../../core/principal.ts';
import type { UserRow } from './user.model.ts';

export interface UsersDeps {
  users: typeof UserRow;
}

/** Users as the rest of the daemon sees them; the Identity area grows this into the full user administration. */
export class UsersService {
  constructor(private readonly deps: UsersDeps) {}

  findByName(username: string): Promise<UserRow | null> {
    return this.deps.users.findOne({ where: { username } });
  }

  findById(id: number): Promise<UserRow | null> {
    return this.deps.users.findByPk(id);
  }

  async principal(userId: number): Promise<Omit<Principal, 'sessionId'> | null> {
    const user = await this.deps.users.findByPk(userId);
    if (!user || !user.active) return null;
    return { id: user.id, username: user.username, admin: user.admin, rights: new Set() };
  }
}
