import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

/** Identity: uids, groups, grants, TOTP, recovery codes and sign-in throttling. */
export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  await qi.addColumn('users', 'uid', { type: DataTypes.INTEGER, allowNull: true }, { transaction });
  await qi.addIndex('users', ['uid'], { unique: true, transaction });
  // The highest uid and gid ever handed out: deleting never lowers it, so none is given out twice.
  await qi.createTable(
    'account_ids',
    {
      kind: { type: DataTypes.TEXT, primaryKey: true },
      last: { type: DataTypes.INTEGER, allowNull: false },
    },
    { transaction },
  );
  await qi.bulkInsert(
    'account_ids',
    [
      { kind: 'uid', last: 19999 },
      { kind: 'gid', last: 29999 },
    ],
    { transaction },
  );
  // A user created before this migration (the development admin) gets the first uid.
  await qi.sequelize.query('UPDATE users SET uid = 20000 + (SELECT COUNT(*) FROM users u2 WHERE u2.id < users.id) WHERE uid IS NULL', { transaction });
  await qi.sequelize.query("UPDATE account_ids SET last = (SELECT COALESCE(MAX(uid), 19999) FROM users) WHERE kind = 'uid'", { transaction });

  await qi.createTable(
    'groups',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.TEXT, allowNull: false, unique: true },
      gid: { type: DataTypes.INTEGER, allowNull: false, unique: true },
      description: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      built_in: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      created_at: { type: DataTypes.TEXT, allowNull: false },
      updated_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  const now = new Date().toISOString();
  // Debian's group users (gid 100) is every user's primary group.
  await qi.bulkInsert('groups', [{ name: 'users', gid: 100, description: 'Every user of the box', built_in: true, created_at: now, updated_at: now }], {
    transaction,
  });
  await qi.createTable(
    'group_members',
    {
      group_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: 'groups', key: 'id' }, onDelete: 'CASCADE' },
      user_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
    },
    { transaction },
  );
  await qi.addIndex('group_members', ['user_id'], { transaction });

  await qi.createTable(
    'user_grants',
    {
      user_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      right: { type: DataTypes.TEXT, allowNull: false, primaryKey: true },
    },
    { transaction },
  );
  await qi.createTable(
    'group_grants',
    {
      group_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: 'groups', key: 'id' }, onDelete: 'CASCADE' },
      right: { type: DataTypes.TEXT, allowNull: false, primaryKey: true },
    },
    { transaction },
  );

  await qi.createTable(
    'user_totp',
    {
      user_id: { type: DataTypes.INTEGER, primaryKey: true, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      secret: { type: DataTypes.TEXT, allowNull: false },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      // The last time step a code was accepted for: that step and earlier ones are refused (no replay).
      last_step: { type: DataTypes.INTEGER, allowNull: true },
      updated_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  await qi.createTable(
    'recovery_codes',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      user_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      code_hash: { type: DataTypes.TEXT, allowNull: false },
      used_at: { type: DataTypes.TEXT, allowNull: true },
    },
    { transaction },
  );
  await qi.addIndex('recovery_codes', ['user_id'], { transaction });

  await qi.createTable(
    'login_throttle',
    {
      key: { type: DataTypes.TEXT, primaryKey: true },
      failures: { type: DataTypes.INTEGER, allowNull: false },
      first_at: { type: DataTypes.INTEGER, allowNull: false },
      locked_until: { type: DataTypes.INTEGER, allowNull: false },
    },
    { transaction },
  );
}
