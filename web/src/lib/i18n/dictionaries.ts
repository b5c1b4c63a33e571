import de from './de.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };
import controlPanelDe from '../../apps/control-panel/i18n/de.json' with { type: 'json' };
import controlPanelEn from '../../apps/control-panel/i18n/en.json' with { type: 'json' };
import settingsDe from '../../apps/personal-settings/i18n/de.json' with { type: 'json' };
import settingsEn from '../../apps/personal-settings/i18n/en.json' with { type: 'json' };
import logsDe from '../../apps/logs/i18n/de.json' with { type: 'json' };
import logsEn from '../../apps/logs/i18n/en.json' with { type: 'json' };

/**
 * Every dictionary of the UI, merged: the shell's own (en.json, de.json) and one pair per app
 * under web/src/apps/<app>/i18n/, whose keys start with the app's namespace. An app adds its
 * pair here: one import line per language and one entry in each spread below.
 */
export const enMessages = { ...en, ...logsEn, ...controlPanelEn, ...settingsEn };
export const deMessages = { ...de, ...logsDe, ...controlPanelDe, ...settingsDe };
