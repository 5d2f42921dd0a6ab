import { backendFromUri } from '@meridian/query-worker';
import { EXAMPLE_TABLES } from '@meridian/query-worker/examples/tables';
import type { MetadataDb } from '../db/database';
import { EXAMPLES_DATABASE_NAME } from '../database/examples';
import { DatasetRepository } from './dataset.repository';

const DEFAULT_SCHEMA: Record<string, string | null> = { duckdb: 'main', postgresql: 'public' };

/**
 * Registers the example tables (birth_names, wb_health_population, cleaned_sales_data, big_ids)
 * of the `examples` database as datasets with their main time column and metrics. Idempotent;
 * does nothing when the examples database is not registered yet (call ensureExamplesDatabase first).
 *
 * @example await ensureExampleDatasets(services) // { created: ['birth_names', ...] }
 */
export async function ensureExampleDatasets(
  services: { db: MetadataDb },
  opts: { databaseName?: string } = {},
): Promise<{ databaseId: number | null; created: string[] }> {
  const database = await services.db
    .selectFrom('dbs')
    .select(['id', 'sqlalchemy_uri'])
    .where('database_name', '=', opts.databaseName ?? EXAMPLES_DATABASE_NAME)
    .executeTakeFirst();
  if (!database) return { databaseId: null, created: [] };
  const schema = DEFAULT_SCHEMA[backendFromUri(database.sqlalchemy_uri) ?? ''] ?? null;
  const repo = new DatasetRepository(services.db);
  const created: string[] = [];
  for (const table of EXAMPLE_TABLES) {
    if (await repo.findByName(database.id, null, schema, table.name)) continue;
    await repo.create(
      {
        database_id: database.id,
        schema,
        table_name: table.name,
        description: table.description,
        main_dttm_col: table.mainDttmCol,
      },
      table.columns.map((c) => ({ column_name: c.name, type: c.type, is_dttm: c.type === 'TIMESTAMP', groupby: true, filterable: true, is_active: true })),
      table.metrics.map((m) => ({ metric_name: m.metricName, expression: m.expression, verbose_name: m.verboseName ?? null, d3format: m.d3format ?? null, metric_type: null })),
      [],
    );
    created.push(table.name);
  }
  return { databaseId: database.id, created };
}
