import { expect } from 'chai';
import { DataTypes, Model, Sequelize } from 'sequelize';
import { PrincipalCache } from './principal-cache.ts';

class Person extends Model {
  declare id: number;
  declare admin: boolean;
}

describe('PrincipalCache', () => {
  let db: Sequelize;
  let loads: number;
  let cache: PrincipalCache;

  beforeEach(async () => {
    db = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
    Person.init({ id: { type: DataTypes.INTEGER, primaryKey: true }, admin: DataTypes.BOOLEAN }, { sequelize: db, tableName: 'people', timestamps: false });
    await Person.sync();
    await Person.create({ id: 1, admin: true });
    loads = 0;
    cache = new PrincipalCache(async (id) => {
      loads++;
      const p = await Person.findByPk(id);
      return p ? { id, username: `u${id}`, displayName: '', language: 'en', totpEnabled: false, admin: p.admin, rights: new Set<string>() } : null;
    }).watch(db);
  });

  afterEach(() => db.close());

  it('answers repeated lookups from memory', async () => {
    expect((await cache.resolve(1))?.admin).to.equal(true);
    await cache.resolve(1);
    expect(loads).to.equal(1);
  });

  it('forgets everything on any write, in or out of a transaction', async () => {
    await cache.resolve(1);
    await Person.update({ admin: false }, { where: { id: 1 } });
    expect((await cache.resolve(1))?.admin).to.equal(false);
    await db.transaction(async (transaction) => {
      const p = await Person.findByPk(1, { transaction });
      await p?.update({ admin: true }, { transaction });
    });
    expect((await cache.resolve(1))?.admin).to.equal(true);
    await Person.destroy({ where: { id: 1 } });
    expect(await cache.resolve(1)).to.equal(null);
  });

  it('forgets on raw SQL writes too, and not on reads', async () => {
    await cache.resolve(1);
    await db.query('SELECT * FROM people');
    await cache.resolve(1);
    expect(loads).to.equal(1);
    await db.query('UPDATE people SET admin = 0 WHERE id = 1');
    expect((await cache.resolve(1))?.admin).to.equal(false);
  });

  it('does not keep a lookup that overlapped a write', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = new PrincipalCache(async (id) => {
      await gate;
      loads++;
      return { id, username: 'x', displayName: '', language: 'en', totpEnabled: false, admin: false, rights: new Set<string>() };
    }).watch(db);
    const pending = slow.resolve(1);
    await Person.update({ admin: false }, { where: { id: 1 } });
    release();
    await pending;
    await slow.resolve(1);
    expect(loads).to.equal(2);
  });
});
