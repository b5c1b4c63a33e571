import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // Users whose desktop got the icons of their apps once. A user not listed gets them at the next
  // load; one who removed them all stays listed, so they stay removed.
  await qi.createTable(
    'desktop_seeded',
    {
      user_id: { type: DataTypes.INTEGER, primaryKey: true, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      seeded_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  // Desktops arranged before this existed keep what their users made of them.
  await qi.sequelize.query(
    "INSERT INTO desktop_seeded (user_id, seeded_at) SELECT DISTINCT user_id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM desktop_items",
    { transaction },
  );
}
