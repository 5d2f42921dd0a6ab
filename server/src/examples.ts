import type { Config } from './config';
import type { MetadataDb } from './db/database';
import { ensureExamplesDatabase } from './database/examples';
import { ensureExampleDatasets } from './dataset/example-datasets';
import { ensureExampleDashboards } from './dashboard/example-dashboards';

/** Builds (when missing) and registers the examples database, its datasets, and the examples' charts and dashboards; idempotent. */
export async function loadExamples(deps: { config: Config; db: MetadataDb }, opts: { rebuild?: boolean } = {}) {
  const database = await ensureExamplesDatabase(deps, opts);
  const datasets = await ensureExampleDatasets(deps);
  const dashboards = await ensureExampleDashboards(deps);
  return { database, datasets, dashboards };
}
