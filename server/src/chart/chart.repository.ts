import { ownersByObject, type Person } from '../common/owners';
import { setCustomTags, tagFilters, tagsByObject, type TagRef } from '../tag/tagged';
import type { ListQuery } from '@meridian/contracts';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { likePattern as like, runListQuery } from '../common/list-query';
import type { MetadataDb } from '../db/database';
import type { DB } from '../db/schema';
import { datasetAccessSql, type DatasetAccessScope } from '../dataset/dataset.repository';

export type SliceRow = Selectable<DB['slices']>;
export type SliceInsert = Insertable<DB['slices']>;
export type SlicePatch = Updateable<DB['slices']>;

export type { Person } from '../common/owners';

/** A chart with its owners, dashboards, creator/editor and datasource name. */
export interface ChartRecord extends SliceRow {
  owners: Person[];
  tags: TagRef[];
  dashboards: Array<{ id: number; dashboard_title: string | null; json_metadata: string | null; owners: number[] }>;
  created_by: Person | null;
  changed_by: Person | null;
  datasource_name: string | null;
  datasource_schema: string | null;
  database_id: number | null;
  database_name: string | null;
}

const LIST_COLUMNS = {
  id: 'slices.id',
  slice_name: 'slices.slice_name',
  viz_type: 'slices.viz_type',
  datasource_id: 'slices.datasource_id',
  datasource_type: 'slices.datasource_type',
  description: 'slices.description',
  changed_on: 'slices.changed_on',
  changed_on_delta_humanized: 'slices.changed_on',
  created_on: 'slices.created_on',
  last_saved_at: 'slices.last_saved_at',
  cache_timeout: 'slices.cache_timeout',
  uuid: 'slices.uuid',
  created_by: 'slices.created_by_fk',
  changed_by: 'slices.changed_by_fk',
  datasource_name: 'tables.table_name',
  'table.table_name': 'tables.table_name',
  certified_by: 'slices.certified_by',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const CHART_ORDER_COLUMNS = Object.keys(LIST_COLUMNS);

/** The charts a caller may read: owned, without a dataset, or on a dataset within its access scope. */
function readableSql(scope: DatasetAccessScope, userId: number) {
  return sql<boolean>`(${sql.ref('slices.datasource_id')} is null or exists (select 1 from slice_user su_access where su_access.slice_id = ${sql.ref('slices.id')} and su_access.user_id = ${userId}) or ${datasetAccessSql(scope)})`;
}

/** Columns of `distinct/{column}` and the expression each reads. */
export const DISTINCT_COLUMNS = { slice_name: 'slices.slice_name', viz_type: 'slices.viz_type', datasource_name: 'tables.table_name' } as const;


/** Saved charts (`slices`), their owners (`slice_user`), dashboards and favourites. */
export class ChartRepository {
  constructor(private readonly db: MetadataDb) {}

  /** Sets the chart's custom tags to these tag ids. */
  setTags(id: number, tagIds: number[], userId: number): Promise<void> {
    return setCustomTags(this.db, 'chart', id, tagIds, userId);
  }

  private base() {
    return this.db
      .selectFrom('slices')
      .leftJoin('tables', (j) => j.onRef('tables.id', '=', 'slices.datasource_id').on('slices.datasource_type', '=', 'table'))
      .leftJoin('dbs', 'dbs.id', 'tables.database_id')
      .leftJoin('ab_user as cb', 'cb.id', 'slices.created_by_fk')
      .leftJoin('ab_user as mb', 'mb.id', 'slices.changed_by_fk')
      .selectAll('slices')
      .select([
        'tables.table_name as datasource_name',
        'tables.schema as datasource_schema',
        'tables.database_id as database_id',
        'dbs.database_name as database_name',
        'cb.first_name as cb_first',
        'cb.last_name as cb_last',
        'mb.first_name as mb_first',
        'mb.last_name as mb_last',
      ]);
  }

  private async hydrate(rows: any[]): Promise<ChartRecord[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id as number);
    const owners = await ownersByObject(this.db, 'chart', ids);
    const dashboards = await this.db
      .selectFrom('dashboard_slices')
      .innerJoin('dashboards', 'dashboards.id', 'dashboard_slices.dashboard_id')
      .select(['dashboard_slices.slice_id', 'dashboards.id', 'dashboards.dashboard_title', 'dashboards.json_metadata'])
      .where('dashboard_slices.slice_id', 'in', ids)
      .orderBy('dashboards.id')
      .execute();
    const dashboardOwners = dashboards.length
      ? await this.db.selectFrom('dashboard_user').select(['dashboard_id', 'user_id']).where('dashboard_id', 'in', dashboards.map((d) => d.id)).execute()
      : [];
    const tags = await tagsByObject(this.db, 'chart', ids);
    return rows.map(({ cb_first, cb_last, mb_first, mb_last, ...row }) => ({
      ...row,
      tags: tags.get(row.id) ?? [],
      created_by: row.created_by_fk ? { id: row.created_by_fk, first_name: cb_first ?? '', last_name: cb_last ?? '' } : null,
      changed_by: row.changed_by_fk ? { id: row.changed_by_fk, first_name: mb_first ?? '', last_name: mb_last ?? '' } : null,
      owners: owners.get(row.id) ?? [],
      dashboards: dashboards
        .filter((d) => d.slice_id === row.id)
        .map((d) => ({ id: d.id, dashboard_title: d.dashboard_title, json_metadata: d.json_metadata, owners: dashboardOwners.filter((o) => o.dashboard_id === d.id).map((o) => o.user_id) })),
    }));
  }

  /**
   * Lists the charts the caller may read: as `ChartService.getReadable` decides one chart, those it
   * owns, those without a dataset, and those on a dataset within its access scope.
   */
  async list(query: ListQuery, opts: { scope: DatasetAccessScope; userId: number }): Promise<{ count: number; rows: ChartRecord[] }> {
    let base = this.base();
    if (!opts.scope.all) base = base.where(readableSql(opts.scope, opts.userId));
    const { count, rows } = await runListQuery(base, query, {
      columns: LIST_COLUMNS,
      idColumn: 'slices.id',
      defaultOrder: ['changed_on', 'desc'],
      custom: {
        'slice_name:chart_all_text': (_eb, value) =>
          sql<boolean>`(${sql.ref('slices.slice_name')} ilike ${like(value)} or ${sql.ref('slices.description')} ilike ${like(value)} or ${sql.ref('slices.viz_type')} ilike ${like(value)} or ${sql.ref('tables.table_name')} ilike ${like(value)})`,
        'slice_name:ct': (_eb, value) => sql<boolean>`${sql.ref('slices.slice_name')} ilike ${like(value)}`,
        'owners:rel_m_m': (_eb, value) => sql<boolean>`exists (select 1 from slice_user su where su.slice_id = ${sql.ref('slices.id')} and su.user_id = ${Number(value)})`,
        'owners:nrel_m_m': (_eb, value) => sql<boolean>`not exists (select 1 from slice_user su where su.slice_id = ${sql.ref('slices.id')} and su.user_id = ${Number(value)})`,
        'dashboards:rel_m_m': (_eb, value) => sql<boolean>`exists (select 1 from dashboard_slices ds where ds.slice_id = ${sql.ref('slices.id')} and ds.dashboard_id = ${Number(value)})`,
        'id:chart_is_favorite': (_eb, value) =>
          value
            ? sql<boolean>`exists (select 1 from favstar f where f.obj_id = ${sql.ref('slices.id')} and f.class_name = 'slice' and f.user_id = ${opts.userId})`
            : sql<boolean>`not exists (select 1 from favstar f where f.obj_id = ${sql.ref('slices.id')} and f.class_name = 'slice' and f.user_id = ${opts.userId})`,
        'id:chart_owned_created_favored_by_me': () =>
          sql<boolean>`(${sql.ref('slices.created_by_fk')} = ${opts.userId} or exists (select 1 from slice_user su where su.slice_id = ${sql.ref('slices.id')} and su.user_id = ${opts.userId}) or exists (select 1 from favstar f where f.obj_id = ${sql.ref('slices.id')} and f.class_name = 'slice' and f.user_id = ${opts.userId}))`,
        'datasource_id:eq': (_eb, value) => sql<boolean>`${sql.ref('slices.datasource_id')} = ${Number(value)}`,
        ...tagFilters('chart', 'slices.id', { byName: 'chart_tags', byId: 'chart_tag_id' }),
      },
    });
    return { count, rows: await this.hydrate(rows) };
  }

  async get(id: number): Promise<ChartRecord | undefined> {
    const row = await this.base().where('slices.id', '=', id).executeTakeFirst();
    return row ? (await this.hydrate([row]))[0] : undefined;
  }

  /** Several charts in one query (hydrated together), in no particular order; ids not found are left out. */
  async getMany(ids: number[]): Promise<ChartRecord[]> {
    if (!ids.length) return [];
    return this.hydrate(await this.base().where('slices.id', 'in', [...new Set(ids)]).execute());
  }

  /** The uuid of each chart of `ids` that exists, by id (for the chart meta a dashboard's layout keeps). */
  async uuids(ids: number[]): Promise<Map<number, string | null>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('slices').select(['id', 'uuid']).where('id', 'in', [...new Set(ids)]).execute();
    return new Map(rows.map((r) => [r.id, r.uuid ? String(r.uuid) : null]));
  }

  async cacheTimeout(id: number): Promise<number | null> {
    const row = await this.db.selectFrom('slices').select('cache_timeout').where('id', '=', id).executeTakeFirst();
    return row?.cache_timeout ?? null;
  }

  /** Inserts a chart with its owners and dashboards in one transaction. */
  async create(values: SliceInsert, owners: number[], dashboards: number[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('slices').values(values).returning('id').executeTakeFirstOrThrow();
      if (owners.length) await trx.insertInto('slice_user').values([...new Set(owners)].map((user_id) => ({ slice_id: id, user_id }))).execute();
      if (dashboards.length) await trx.insertInto('dashboard_slices').values([...new Set(dashboards)].map((dashboard_id) => ({ slice_id: id, dashboard_id }))).execute();
      return id;
    });
  }

  async update(id: number, patch: SlicePatch, lists: { owners?: number[]; dashboards?: number[] }): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('slices').set({ ...patch, changed_on: new Date() }).where('id', '=', id).execute();
      if (lists.owners) {
        await trx.deleteFrom('slice_user').where('slice_id', '=', id).execute();
        if (lists.owners.length) await trx.insertInto('slice_user').values([...new Set(lists.owners)].map((user_id) => ({ slice_id: id, user_id }))).execute();
      }
      if (lists.dashboards) {
        await trx.deleteFrom('dashboard_slices').where('slice_id', '=', id).execute();
        if (lists.dashboards.length) await trx.insertInto('dashboard_slices').values([...new Set(lists.dashboards)].map((dashboard_id) => ({ slice_id: id, dashboard_id }))).execute();
      }
    });
  }

  async delete(ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('favstar').where('class_name', '=', 'slice').where('obj_id', 'in', ids).execute();
      await trx.deleteFrom('slices').where('id', 'in', ids).execute();
    });
  }

  async existingUserIds(ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('ab_user').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
  }

  /** Dashboards among `ids` with their owners. */
  async dashboards(ids: number[]): Promise<Array<{ id: number; owners: number[] }>> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('dashboards').select('id').where('id', 'in', ids).execute();
    const owners = await this.db.selectFrom('dashboard_user').select(['dashboard_id', 'user_id']).where('dashboard_id', 'in', ids).execute();
    return rows.map((r) => ({ id: r.id, owners: owners.filter((o) => o.dashboard_id === r.id).map((o) => o.user_id) }));
  }

  async favoriteIds(userId: number, ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('favstar').select('obj_id').where('user_id', '=', userId).where('class_name', '=', 'slice').where('obj_id', 'in', ids).execute()).map((r) => r.obj_id);
  }

  async addFavorite(userId: number, id: number): Promise<void> {
    await this.db.insertInto('favstar').values({ user_id: userId, class_name: 'slice', obj_id: id }).onConflict((oc) => oc.columns(['user_id', 'class_name', 'obj_id']).doNothing()).execute();
  }

  async removeFavorite(userId: number, id: number): Promise<void> {
    await this.db.deleteFrom('favstar').where('user_id', '=', userId).where('class_name', '=', 'slice').where('obj_id', '=', id).execute();
  }

  /** Distinct values of one column among the charts the caller may read, with how many there are. */
  async distinct(column: keyof typeof DISTINCT_COLUMNS, opts: { scope: DatasetAccessScope; userId: number; filter: string; page: number; pageSize: number }): Promise<{ count: number; values: string[] }> {
    const ref = sql.ref(DISTINCT_COLUMNS[column]);
    let q = this.db
      .selectFrom('slices')
      .leftJoin('tables', (j) => j.onRef('tables.id', '=', 'slices.datasource_id').on('slices.datasource_type', '=', 'table'))
      .where(sql<boolean>`${ref} is not null`);
    if (!opts.scope.all) q = q.where(readableSql(opts.scope, opts.userId));
    if (opts.filter) q = q.where(sql<boolean>`${ref} ilike ${like(opts.filter)}`);
    const count = Number((await q.select(sql<number>`count(distinct ${ref})`.as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q.select(sql<string>`${ref}`.as('value')).distinct().orderBy('value').limit(opts.pageSize).offset(opts.page * opts.pageSize).execute();
    return { count, values: rows.map((r) => r.value) };
  }

  /** Dashboards for the `dashboards` related field, with their titles. */
  async dashboardChoices(search: string, page: number, pageSize: number, ownerId: number | null): Promise<{ count: number; rows: Array<{ id: number; dashboard_title: string | null }> }> {
    let q = this.db.selectFrom('dashboards');
    if (search) q = q.where(sql<boolean>`dashboard_title ilike ${like(search)}`);
    if (ownerId !== null) q = q.where(sql<boolean>`exists (select 1 from dashboard_user du where du.dashboard_id = dashboards.id and du.user_id = ${ownerId})`);
    const count = Number((await q.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q.select(['id', 'dashboard_title']).orderBy('dashboard_title').orderBy('id').limit(pageSize).offset(page * pageSize).execute();
    return { count, rows };
  }
}
