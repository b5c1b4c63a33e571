import de from './de.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };
import desktopDe from '../../desktop/i18n/de.json' with { type: 'json' };
import desktopEn from '../../desktop/i18n/en.json' with { type: 'json' };
import controlPanelDe from '../../apps/control-panel/i18n/de.json' with { type: 'json' };
import controlPanelEn from '../../apps/control-panel/i18n/en.json' with { type: 'json' };
import settingsDe from '../../apps/personal-settings/i18n/de.json' with { type: 'json' };
import settingsEn from '../../apps/personal-settings/i18n/en.json' with { type: 'json' };
import logsDe from '../../apps/logs/i18n/de.json' with { type: 'json' };
import logsEn from '../../apps/logs/i18n/en.json' with { type: 'json' };
import filesDe from '../../apps/files/i18n/de.json' with { type: 'json' };
import filesEn from '../../apps/files/i18n/en.json' with { type: 'json' };
import sharesDe from '../../apps/control-panel/shares/i18n/de.json' with { type: 'json' };
import sharesEn from '../../apps/control-panel/shares/i18n/en.json' with { type: 'json' };
import storageDe from '../../apps/storage-manager/i18n/de.json' with { type: 'json' };
import storageEn from '../../apps/storage-manager/i18n/en.json' with { type: 'json' };
import homesDe from '../../apps/control-panel/homes/i18n/de.json' with { type: 'json' };
import regionDe from '../../apps/control-panel/region/i18n/de.json' with { type: 'json' };
import regionEn from '../../apps/control-panel/region/i18n/en.json' with { type: 'json' };
import backupDe from '../../apps/control-panel/backup/i18n/de.json' with { type: 'json' };
import backupEn from '../../apps/control-panel/backup/i18n/en.json' with { type: 'json' };
import homesEn from '../../apps/control-panel/homes/i18n/en.json' with { type: 'json' };
import versionsDe from '../../apps/files/versions/i18n/de.json' with { type: 'json' };
import versionsEn from '../../apps/files/versions/i18n/en.json' with { type: 'json' };
import appCenterDe from '../../apps/app-center/i18n/de.json' with { type: 'json' };
import appCenterEn from '../../apps/app-center/i18n/en.json' with { type: 'json' };
import certificatesDe from '../../apps/control-panel/certificates/i18n/de.json' with { type: 'json' };
import certificatesEn from '../../apps/control-panel/certificates/i18n/en.json' with { type: 'json' };
import proxyDe from '../../apps/control-panel/proxy/i18n/de.json' with { type: 'json' };
import proxyEn from '../../apps/control-panel/proxy/i18n/en.json' with { type: 'json' };
import timeDe from '../../apps/control-panel/time/i18n/de.json' with { type: 'json' };
import timeEn from '../../apps/control-panel/time/i18n/en.json' with { type: 'json' };
import powerDe from '../../apps/control-panel/power/i18n/de.json' with { type: 'json' };
import powerEn from '../../apps/control-panel/power/i18n/en.json' with { type: 'json' };
import overviewDe from '../../apps/overview/i18n/de.json' with { type: 'json' };
import overviewEn from '../../apps/overview/i18n/en.json' with { type: 'json' };
import networkDe from '../../apps/control-panel/network/i18n/de.json' with { type: 'json' };
import networkEn from '../../apps/control-panel/network/i18n/en.json' with { type: 'json' };
import updatesDe from '../../apps/control-panel/updates/i18n/de.json' with { type: 'json' };
import updatesEn from '../../apps/control-panel/updates/i18n/en.json' with { type: 'json' };

/**
 * Every dictionary of the UI, merged: the shell's own (en.json, de.json) and one pair per app
 * under web/src/apps/<app>/i18n/, whose keys start with the app's namespace. An app adds its
 * pair here: one import line per language and one entry in each spread below.
 */
export const enMessages = {
  ...en,
  ...desktopEn,
  ...filesEn,
  ...sharesEn,
  ...logsEn,
  ...controlPanelEn,
  ...settingsEn,
  ...storageEn,
  ...homesEn,
  ...regionEn,
  ...backupEn,
  ...versionsEn,
  ...appCenterEn,
  ...certificatesEn,
  ...timeEn,
  ...proxyEn,
  ...powerEn,
  ...overviewEn,
  ...networkEn,
  ...updatesEn,
};
export const deMessages = {
  ...de,
  ...desktopDe,
  ...filesDe,
  ...sharesDe,
  ...logsDe,
  ...controlPanelDe,
  ...settingsDe,
  ...storageDe,
  ...homesDe,
  ...regionDe,
  ...backupDe,
  ...versionsDe,
  ...appCenterDe,
  ...certificatesDe,
  ...timeDe,
  ...proxyDe,
  ...powerDe,
  ...overviewDe,
  ...networkDe,
  ...updatesDe,
};
