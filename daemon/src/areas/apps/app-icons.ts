import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { AppVolumes } from '../../host/app-volumes/app-volumes.ts';
import { volumeLayout } from './apps.jobs.ts';
import type { AppModels } from './app.model.ts';

/** Installed apps' icons (checked at upload to be only a picture), to those who may use the app. */
export class AppIcons {
  constructor(private readonly deps: { models: AppModels; volumes: AppVolumes; mayUse(principal: Principal, appId: string): Promise<boolean> }) {}

  async icon(principal: Principal, appId: string): Promise<string> {
    // Administrators see the icon of every installed app, a disabled one too (the App Center lists it).
    const visible = principal.admin ? (await this.deps.models.apps.findByPk(appId)) !== null : await this.deps.mayUse(principal, appId);
    if (!visible) throw new ProblemError('app.app.not_found', { appId });
    const account = await this.deps.models.accounts.findByPk(appId);
    const volume = account?.dataset ? await this.deps.volumes.find(account.dataset) : null;
    const svg = volume ? await readFile(path.join(volume.path, volumeLayout.package, 'icon.svg'), 'utf8').catch(() => null) : null;
    if (svg === null) throw new ProblemError('app.app.not_found', { appId });
    return svg;
  }
}
