import type { Config } from './config';
import type { MetadataDb } from './db/database';
import { ensureExamplesDatabase } from './database/examples';
import { ensureExampleDatasets } from './dataset/example-datasets';

/** Builds (when missing) and registers the examples database and its datasets; idempotent. */
export async function loadExamples(deps: { config: Config; db: MetadataDb }, opts: { rebuild?: boolean } = {}) {
  const database = await ensureExamplesDatabase(deps, opts);
  const datasets = await ensureExampleDatasets(deps);
  return { database, datasets };
}
