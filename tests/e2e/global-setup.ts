import { rmSync } from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { MIGRATED_DATA_DIR } from './own-server.ts';
import { prepareE2eServer } from './prepare-server.ts';

/**
 * Sets each shared server the projects use as prepare-server.ts says (Playwright starts them
 * before this runs). Returns the run's teardown: the migrated data directory the servers of
 * the specs' own were copied from (own-server.ts) is only a cache of the run, and goes.
 */
export default async function globalSetup(config: FullConfig): Promise<() => void> {
  const servers = new Set(config.projects.map((project) => project.use.baseURL).filter((url): url is string => Boolean(url)));
  await Promise.all([...servers].map((baseURL) => prepareE2eServer(baseURL)));
  return () => rmSync(MIGRATED_DATA_DIR, { recursive: true, force: true });
}
