import { ownersByObject, type Person } from '../common/owners';
import { ensurePermissionView } from '../security/security.repository';
import { distinctValues } from '../common/distinct';
import type { ListQuery } from '@meridian/contracts';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { likePattern, runListQuery } from '../common/list-query';
import type { MetadataDb } from '../db/database';
import type { DB } from '../db/schema';

export type DatasetRow = Selectable<DB['tables']>;
export type DatasetInsert = Insertable<DB['tables']>;
export type DatasetPatch = Updateable<DB['tables']>;
export type ColumnRow = Selectable<DB['table_columns']>;
export type ColumnInsert = Omit<Insertable<DB['table_columns']>, 'table_id'>;
export type MetricRow = Selectable<DB['sql_metrics']>;
export type MetricInsert = Omit<Insertable<DB['sql_metrics']>, 'table_id'>;

export type { Person } from '../common/owners';

/** A dataset row with its database, creator, editor, owners, columns and metrics. */
export interface DatasetRecord extends DatasetRow {
  database_name: string;
  sqlalchemy_uri: string;
  /** The database's encrypted password: chart data connects from the dataset record alone. Never in a view. */
  database_password_encrypted: string | null;
  database_extra: string;
  database_cache_timeout: number | null;
  database_uuid: string;
  created_by: Person | null;
  changed_by: Person | null;
  owners: Person[];
  columns: ColumnRow[];
  metrics: MetricRow[];
  /** Set by chart data for the querying user: the row-level security clauses its queries of this dataset get. */
  rls?: string[];
}

/**
 * Who may use which datasets (Superset's datasource access), as data: everything, or the datasets
 * on databases named by `database_access` views, those named by `datasource_access` views, and
 * those the user owns. `DatasetService.canAccess` checks one record against it and
 * `datasetAccessSql` applies it in SQL, so a list and a read never disagree.
 */
export type DatasetAccessScope =
  | { all: true }
  | { all: false; databasePerms: string[]; datasourcePerms: string[]; userId: number };

/** The `datasource_access` view name Superset gives a dataset: `[database].[table](id:N)`. */
export function datasetPermName(databaseName: string, tableName: string, id: number): string {
  return `[${databaseName}].[${tableName}](id:${id})`;
}

/**
 * The scope as a SQL condition on the `tables` and `dbs` rows of a query (aliases given), for
 * lists: the view names are built from the row exactly as `datasetPermName`/`databasePermName` do.
 */
export function datasetAccessSql(scope: DatasetAccessScope, tables = 'tables', dbs = 'dbs') {
  if (scope.all) return sql<boolean>`true`;
  const tableId = sql.ref(`${tables}.id`);
  const conditions = [sql<boolean>`exists (select 1 from sqlatable_user su_access where su_access.table_id = ${tableId} and su_access.user_id = ${scope.userId})`];
  if (scope.databasePerms.length) {
    const name = sql`('[' || ${sql.ref(`${dbs}.database_name`)} || '].(id:' || cast(${sql.ref(`${dbs}.id`)} as text) || ')')`;
    conditions.push(sql<boolean>`${name} in (${sql.join(scope.databasePerms)})`);
  }
  if (scope.datasourcePerms.length) {
    const name = sql`('[' || ${sql.ref(`${dbs}.database_name`)} || '].[' || ${sql.ref(`${tables}.table_name`)} || '](id:' || cast(${tableId} as text) || ')')`;
    conditions.push(sql<boolean>`${name} in (${sql.join(scope.datasourcePerms)})`);
  }
  return sql<boolean>`(${sql.join(conditions, sql` or `)})`;
}

/** Superset's DatasetRestApi allowed_distinct_fields. */
export const DATASET_DISTINCT_COLUMNS = ['schema', 'catalog'] as const;

const LIST_COLUMNS = {
  id: 'tables.id',
  table_name: 'tables.table_name',
  schema: 'tables.schema',
  catalog: 'tables.catalog',
  sql: 'tables.sql',
  database: 'tables.database_id',
  database_name: 'dbs.database_name',
  'database.database_name': 'dbs.database_name',
  changed_on: 'tables.changed_on',
  changed_on_delta_humanized: 'tables.changed_on',
  created_on: 'tables.created_on',
  description: 'tables.description',
  uuid: 'tables.uuid',
  is_sqllab_view: 'tables.is_sqllab_view',
  main_dttm_col: 'tables.main_dttm_col',
  created_by: 'tables.created_by_fk',
  changed_by: 'tables.changed_by_fk',
  'changed_by.first_name': 'mb.first_name',
  is_managed_externally: 'tables.is_managed_externally',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const DATASET_ORDER_COLUMNS = Object.keys(LIST_COLUMNS);

/** Datasets (`tables`), their columns (`table_columns`), metrics (`sql_metrics`) and owners (`sqlatable_user`). */
export class DatasetRepository {
  constructor(private readonly db: MetadataDb) {}

  private base(db: MetadataDb = this.db) {
    return db
      .selectFrom('tables')
      .innerJoin('dbs', 'dbs.id', 'tables.database_id')
      .leftJoin('ab_user as cb', 'cb.id', 'tables.created_by_fk')
      .leftJoin('ab_user as mb', 'mb.id', 'tables.changed_by_fk')
      .selectAll('tables')
      .select([
        'dbs.database_name',
        'dbs.sqlalchemy_uri',
        'dbs.password_encrypted as database_password_encrypted',
        'dbs.extra as database_extra',
        'dbs.cache_timeout as database_cache_timeout',
        'dbs.uuid as database_uuid',
        'cb.first_name as cb_first',
        'cb.last_name as cb_last',
        'mb.first_name as mb_first',
        'mb.last_name as mb_last',
      ]);
  }

  private async hydrate(rows: any[], withChildren: boolean, db: MetadataDb = this.db): Promise<DatasetRecord[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id as number);
    const owners = await ownersByObject(db, 'dataset', ids);
    const columns = withChildren ? await db.selectFrom('table_columns').selectAll().where('table_id', 'in', ids).orderBy('id').execute() : [];
    const metrics = withChildren ? await db.selectFrom('sql_metrics').selectAll().where('table_id', 'in', ids).orderBy('id').execute() : [];
    return rows.map(({ cb_first, cb_last, mb_first, mb_last, ...row }) => ({
      ...row,
      created_by: row.created_by_fk ? { id: row.created_by_fk, first_name: cb_first ?? '', last_name: cb_last ?? '' } : null,
      changed_by: row.changed_by_fk ? { id: row.changed_by_fk, first_name: mb_first ?? '', last_name: mb_last ?? '' } : null,
      owners: owners.get(row.id) ?? [],
      columns: columns.filter((c) => c.table_id === row.id),
      metrics: metrics.filter((m) => m.table_id === row.id),
    }));
  }

  /** Lists the datasets within the caller's access scope. */
  /** `distinct/{schema,catalog}` among the datasets the scope may read. */
  distinct(column: (typeof DATASET_DISTINCT_COLUMNS)[number], scope: DatasetAccessScope, page: { filter: string; page: number; pageSize: number }) {
    let base = this.db.selectFrom('tables').innerJoin('dbs', 'dbs.id', 'tables.database_id');
    if (!scope.all) base = base.where(datasetAccessSql(scope));
    return distinctValues(base, `tables.${column}`, page);
  }

  async list(query: ListQuery, scope: DatasetAccessScope): Promise<{ count: number; rows: DatasetRecord[] }> {
    let base = this.base();
    if (!scope.all) base = base.where(datasetAccessSql(scope));
    const { count, rows } = await runListQuery(base, query, {
      columns: LIST_COLUMNS,
      idColumn: 'tables.id',
      defaultOrder: ['changed_on', 'desc'],
      custom: {
        'table_name:ct': (_eb, value) => sql<boolean>`${sql.ref('tables.table_name')} ilike ${likePattern(value)}`,
        'sql:dataset_is_null_or_empty': (_eb, value) =>
          value ? sql<boolean>`(${sql.ref('tables.sql')} is null or ${sql.ref('tables.sql')} = '')` : sql<boolean>`(${sql.ref('tables.sql')} is not null and ${sql.ref('tables.sql')} <> '')`,
        'owners:rel_m_m': (_eb, value) => sql<boolean>`exists (select 1 from sqlatable_user su where su.table_id = ${sql.ref('tables.id')} and su.user_id = ${Number(value)})`,
        'owners:nrel_m_m': (_eb, value) => sql<boolean>`not exists (select 1 from sqlatable_user su where su.table_id = ${sql.ref('tables.id')} and su.user_id = ${Number(value)})`,
        'database:rel_o_m': (_eb, value) => sql<boolean>`${sql.ref('tables.database_id')} = ${Number(value)}`,
        'database:nrel_o_m': (_eb, value) => sql<boolean>`${sql.ref('tables.database_id')} <> ${Number(value)}`,
        'id:dataset_is_certified': (_eb, value) =>
          value ? sql<boolean>`${sql.ref('tables.extra')} like '%"certification"%'` : sql<boolean>`(${sql.ref('tables.extra')} is null or ${sql.ref('tables.extra')} not like '%"certification"%')`,
      },
    });
    return { count, rows: await this.hydrate(rows, false) };
  }

  async get(id: number): Promise<DatasetRecord | undefined> {
    const row = await this.base().where('tables.id', '=', id).executeTakeFirst();
    return row ? (await this.hydrate([row], true))[0] : undefined;
  }

  async getMany(ids: number[]): Promise<DatasetRecord[]> {
    if (!ids.length) return [];
    return this.hydrate(await this.base().where('tables.id', 'in', ids).execute(), true);
  }

  /** Ids of the datasets named by database name, schema and table name (unknown ones are left out). */
  async idsByName(names: Array<{ database_name: string; schema?: string | null; table_name: string }>): Promise<number[]> {
    const ids: number[] = [];
    for (const n of names) {
      const row = await this.db
        .selectFrom('tables')
        .innerJoin('dbs', 'dbs.id', 'tables.database_id')
        .select('tables.id')
        .where('dbs.database_name', '=', n.database_name)
        .where('tables.table_name', '=', n.table_name)
        // No schema named (Superset's dataset warm-up names none): the table name alone decides.
        .$if(n.schema !== undefined, (q) => q.where(sql<boolean>`coalesce(${sql.ref('tables.schema')}, '') = ${n.schema ?? ''}`))
        .executeTakeFirst();
      if (row) ids.push(row.id);
    }
    return ids;
  }

  async findByName(databaseId: number, catalog: string | null, schema: string | null, tableName: string): Promise<DatasetRecord | undefined> {
    const row = await this.base()
      .where('tables.database_id', '=', databaseId)
      .where(sql<boolean>`coalesce(${sql.ref('tables.catalog')}, '') = ${catalog ?? ''}`)
      .where(sql<boolean>`coalesce(${sql.ref('tables.schema')}, '') = ${schema ?? ''}`)
      .where('tables.table_name', '=', tableName)
      .executeTakeFirst();
    return row ? (await this.hydrate([row], true))[0] : undefined;
  }

  /** Inserts a dataset with its columns, metrics and owners in one transaction. */
  async create(values: DatasetInsert, columns: ColumnInsert[], metrics: MetricInsert[], owners: number[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('tables').values(values).returning('id').executeTakeFirstOrThrow();
      if (columns.length) await trx.insertInto('table_columns').values(columns.map((c) => ({ ...c, table_id: id }))).execute();
      if (metrics.length) await trx.insertInto('sql_metrics').values(metrics.map((m) => ({ ...m, table_id: id }))).execute();
      if (owners.length) await trx.insertInto('sqlatable_user').values([...new Set(owners)].map((user_id) => ({ table_id: id, user_id }))).execute();
      // Its datasource_access permission, so a role can be given this dataset alone (as Superset makes it).
      const database = await trx.selectFrom('dbs').select('database_name').where('id', '=', values.database_id).executeTakeFirstOrThrow();
      await ensurePermissionView(trx as unknown as MetadataDb, 'datasource_access', datasetPermName(database.database_name, values.table_name, id));
      return id;
    });
  }

  /**
   * Updates a dataset; given lists replace the current ones: entries matched by id (or name) are
   * updated, new ones inserted, the rest deleted. One transaction, which first locks the row and hands
   * its stored `changed_on` to `check` (which may throw to write nothing). The new `changed_on` is
   * later than the stored one by at least a millisecond, so every save gives the copy a new time even
   * when two land within one clock tick. False when the dataset is gone.
   */
  async update(
    id: number,
    patch: DatasetPatch,
    lists: { columns?: Array<ColumnInsert & { id?: number }>; metrics?: Array<MetricInsert & { id?: number }>; owners?: number[] },
    check?: (stored: { changed_on: Date }) => void,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const stored = await trx.selectFrom('tables').select('changed_on').where('id', '=', id).forUpdate().executeTakeFirst();
      if (!stored) return false;
      const storedOn = new Date(stored.changed_on);
      check?.({ changed_on: storedOn });
      const changedOn = new Date(Math.max(Date.now(), storedOn.getTime() + 1));
      await trx.updateTable('tables').set({ ...patch, changed_on: changedOn }).where('id', '=', id).execute();
      if (lists.columns) {
        const existing = await trx.selectFrom('table_columns').select(['id', 'column_name']).where('table_id', '=', id).execute();
        const keep = new Set<number>();
        for (const { id: colId, ...col } of lists.columns) {
          const match = existing.find((e) => (colId !== undefined ? e.id === colId : e.column_name === col.column_name));
          if (match) {
            keep.add(match.id);
            await trx.updateTable('table_columns').set({ ...col, changed_on: new Date() }).where('id', '=', match.id).execute();
          }
        }
        const removed = existing.filter((e) => !keep.has(e.id)).map((e) => e.id);
        if (removed.length) await trx.deleteFrom('table_columns').where('id', 'in', removed).execute();
        const fresh = lists.columns.filter(({ id: colId, column_name }) => !existing.some((e) => (colId !== undefined ? e.id === colId : e.column_name === column_name)));
        if (fresh.length) await trx.insertInto('table_columns').values(fresh.map(({ id: _id, ...c }) => ({ ...c, table_id: id }))).execute();
      }
      if (lists.metrics) {
        const existing = await trx.selectFrom('sql_metrics').select(['id', 'metric_name']).where('table_id', '=', id).execute();
        const keep = new Set<number>();
        for (const { id: metricId, ...metric } of lists.metrics) {
          const match = existing.find((e) => (metricId !== undefined ? e.id === metricId : e.metric_name === metric.metric_name));
          if (match) {
            keep.add(match.id);
            await trx.updateTable('sql_metrics').set({ ...metric, changed_on: new Date() }).where('id', '=', match.id).execute();
          }
        }
        const removed = existing.filter((e) => !keep.has(e.id)).map((e) => e.id);
        if (removed.length) await trx.deleteFrom('sql_metrics').where('id', 'in', removed).execute();
        const fresh = lists.metrics.filter(({ id: metricId, metric_name }) => !existing.some((e) => (metricId !== undefined ? e.id === metricId : e.metric_name === metric_name)));
        if (fresh.length) await trx.insertInto('sql_metrics').values(fresh.map(({ id: _id, ...m }) => ({ ...m, table_id: id }))).execute();
      }
      if (lists.owners) {
        await trx.deleteFrom('sqlatable_user').where('table_id', '=', id).execute();
        if (lists.owners.length) await trx.insertInto('sqlatable_user').values([...new Set(lists.owners)].map((user_id) => ({ table_id: id, user_id }))).execute();
      }
      return true;
    });
  }

  /** Deletes one column or metric of a dataset (and marks the dataset changed); false when it has none by that id. */
  async deleteChild(kind: 'column' | 'metric', tableId: number, childId: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const table = kind === 'column' ? 'table_columns' : 'sql_metrics';
      const deleted = await trx.deleteFrom(table).where('id', '=', childId).where('table_id', '=', tableId).executeTakeFirst();
      if (!Number(deleted.numDeletedRows)) return false;
      await trx.updateTable('tables').set({ changed_on: new Date() }).where('id', '=', tableId).execute();
      return true;
    });
  }

  async delete(ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('tables').where('id', 'in', ids).execute();
    });
  }

  /** Ids of existing users among `ids`. */
  async existingUserIds(ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('ab_user').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
  }

  /** Charts built on datasets, for the related-objects answer and delete checks. */
  async relatedCharts(id: number): Promise<Array<{ id: number; slice_name: string; viz_type: string | null }>> {
    return this.db.selectFrom('slices').select(['id', 'slice_name', 'viz_type']).where('datasource_id', '=', id).where('datasource_type', '=', 'table').orderBy('id').execute();
  }

  /** Dashboards holding at least one chart of the dataset, each once. */
  async relatedDashboards(id: number): Promise<Array<{ id: number; json_metadata: string | null; slug: string | null; title: string | null }>> {
    return this.db
      .selectFrom('dashboards')
      .select(['dashboards.id', 'dashboards.json_metadata', 'dashboards.slug', 'dashboards.dashboard_title as title'])
      .where('dashboards.id', 'in', (qb) =>
        qb
          .selectFrom('dashboard_slices')
          .innerJoin('slices', 'slices.id', 'dashboard_slices.slice_id')
          .select('dashboard_slices.dashboard_id')
          .where('slices.datasource_id', '=', id)
          .where('slices.datasource_type', '=', 'table'),
      )
      .orderBy('dashboards.id')
      .execute();
  }
}
