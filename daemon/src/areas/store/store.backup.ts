import Joi from 'joi';
import { catalogIdPattern, catalogUrlPattern, dailyTimePattern, storeLimits, type StoreSettings } from '../../../../shared/src/api/store/store.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { makeDeployKey } from '../../host/git/git-client.ts';
import type { BackupPart } from '../backup-part.ts';
import { isSshUrl, type CatalogCopies } from './catalog-copies.ts';
import type { StoreModels } from './store.model.ts';
import type { StoreService } from './store.service.ts';

/** A project catalog by its id (this box's list decides its address), or a custom one by its address. */
interface BackedUpCatalog {
  catalogId: string;
  builtIn: boolean;
  name: string;
  url: string;
  enabled: boolean;
  readToken: string | null;
}

export interface StoreBackup {
  settings: Pick<StoreSettings, 'policy' | 'dailyTime' | 'channel'>;
  catalogs: BackedUpCatalog[];
}

export interface StoreBackupDeps {
  models: StoreModels;
  store: Pick<StoreService, 'settingsRow' | 'enqueueSync'>;
  copies: Pick<CatalogCopies, 'ssh' | 'remove'>;
  /** The project's catalogs on this box: only they may be built in, and their ids and addresses are theirs. */
  projectCatalogs: readonly { id: string; url: string }[];
  /** http:// catalogs are taken in development mode only, as by hand (store.catalog.url_refused). */
  allowHttp: boolean;
}

const schema = Joi.object<StoreBackup, true>({
  settings: Joi.object({
    policy: Joi.string().valid('automatic', 'notify', 'none').required(),
    dailyTime: Joi.string().pattern(dailyTimePattern).required(),
    channel: Joi.string().valid('stable', 'beta').required(),
  }).required(),
  catalogs: Joi.array()
    .items(
      Joi.object({
        catalogId: Joi.string().pattern(catalogIdPattern).required(),
        builtIn: Joi.boolean().required(),
        name: Joi.string().min(1).max(storeLimits.name).required(),
        url: Joi.string().max(storeLimits.url).pattern(catalogUrlPattern, 'catalog address').required(),
        enabled: Joi.boolean().required(),
        readToken: Joi.string()
          .max(storeLimits.token)
          .pattern(/^[^:\s]+:\S+$/, 'user:token')
          .allow(null)
          .required(),
      }),
    )
    .max(100)
    .required(),
});

/**
 * The Store's settings and catalogs (the store part of a backup): custom catalogs with their address
 * and read token, project catalogs switched on or off. Fetched copies, a deploy key and this box's
 * delay of the daily check are the box's own: a restored SSH catalog gets a new deploy key.
 */
export function storeBackupPart(deps: StoreBackupDeps): BackupPart<StoreBackup> {
  const { models } = deps;
  // Custom catalogs the restore replaced: their copies and deploy keys go once it committed.
  let replaced: number[] = [];
  return {
    name: 'store',
    async export() {
      const row = await deps.store.settingsRow();
      const catalogs = await models.catalogs.findAll({ order: [['key', 'ASC']] });
      return {
        settings: { policy: row.policy, dailyTime: row.dailyTime, channel: row.channel },
        catalogs: catalogs.map((c) => ({ catalogId: c.catalogId, builtIn: c.builtIn, name: c.name, url: c.url, enabled: c.enabled, readToken: c.readToken })),
      };
    },
    async inspect(raw) {
      const { value, error } = schema.validate(raw, { convert: false });
      if (error) throw new ProblemError('backup.part.invalid', { part: 'store' }, { detail: error.message });
      const urls = new Set(deps.projectCatalogs.map((p) => p.url));
      const ids = new Set(deps.projectCatalogs.map((p) => p.id));
      for (const c of value.catalogs) {
        if (c.builtIn) continue;
        // The same rules as adding a catalog by hand.
        if (c.url.startsWith('http://') && !deps.allowHttp) throw new ProblemError('store.catalog.url_refused', { url: c.url });
        if (urls.has(c.url)) throw new ProblemError('store.catalog.exists', { url: c.url });
        urls.add(c.url);
        // Installed apps name their catalog by id: a custom one keeps its own, never a project catalog's or another's.
        if (ids.has(c.catalogId)) throw new ProblemError('backup.part.invalid', { part: 'store' }, { detail: `two catalogs have the id ${c.catalogId}` });
        ids.add(c.catalogId);
      }
      // A project catalog this box does not know is left out: its address would come from the file, not from the box.
      const known = new Set(deps.projectCatalogs.map((p) => p.id));
      const skipped = value.catalogs.filter((c) => c.builtIn && !known.has(c.catalogId)).map((c) => c.name);
      const custom = value.catalogs.filter((c) => !c.builtIn);
      return { data: value, counts: { catalogs: custom.length, settings: 1 }, ...(skipped.length > 0 ? { skipped } : {}) };
    },
    async restore(data, transaction) {
      const settings = await deps.store.settingsRow();
      await settings.update(data.settings, { transaction });
      replaced = (await models.catalogs.findAll({ where: { builtIn: false }, transaction })).map((c) => c.key);
      await models.catalogs.destroy({ where: { builtIn: false }, transaction });
      const skipped: string[] = [];
      for (const c of data.catalogs) {
        if (c.builtIn) {
          const [changed] = await models.catalogs.update(
            { enabled: c.enabled, readToken: c.readToken },
            { where: { catalogId: c.catalogId, builtIn: true }, transaction },
          );
          if (changed === 0) skipped.push(c.name);
          continue;
        }
        await models.catalogs.create(
          { catalogId: c.catalogId, name: c.name, url: c.url, builtIn: false, enabled: c.enabled, readToken: c.readToken, state: 'new' },
          { transaction },
        );
      }
      return skipped.length > 0 ? { skipped } : undefined;
    },
    async apply() {
      for (const key of replaced) await deps.copies.remove(key);
      replaced = [];
      for (const row of await models.catalogs.findAll({ where: { builtIn: false } })) {
        if (isSshUrl(row.url)) await makeDeployKey(deps.copies.ssh(row.key), `cellar-store-${row.key}`);
        if (row.enabled) await deps.store.enqueueSync(row.key, null);
      }
    },
  };
}
