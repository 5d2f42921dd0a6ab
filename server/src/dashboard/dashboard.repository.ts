import { metadataId } from '../common/ids';
import { ownersByObject } from '../common/owners';
import { setCustomTags, tagFilters, tagsByObject, type TagRef } from '../tag/tagged';
import { PermalinkRepository } from '../key-value/permalink.repository';
import type { ListQuery } from '@meridian/contracts';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { likePattern as like, runListQuery } from '../common/list-query';
import type { MetadataDb } from '../db/database';
import type { DB } from '../db/schema';
import { datasetAccessSql, type DatasetAccessScope } from '../dataset/dataset.repository';
import type { Person } from '../chart/chart.repository';

export type DashboardRow = Selectable<DB['dashboards']>;
export type DashboardInsert = Insertable<DB['dashboards']>;
export type DashboardPatch = Updateable<DB['dashboards']>;

/** A dashboard with its owners, roles, creator/editor and the ids of its charts. */
export interface DashboardRecord extends DashboardRow {
  owners: Person[];
  tags: TagRef[];
  roles: Array<{ id: number; name: string }>;
  created_by: Person | null;
  changed_by: Person | null;
  chart_ids: number[];
}

const LIST_COLUMNS = {
  id: 'dashboards.id',
  dashboard_title: 'dashboards.dashboard_title',
  slug: 'dashboards.slug',
  published: 'dashboards.published',
  changed_on: 'dashboards.changed_on',
  changed_on_delta_humanized: 'dashboards.changed_on',
  created_on: 'dashboards.created_on',
  created_by: 'dashboards.created_by_fk',
  changed_by: 'dashboards.changed_by_fk',
  certified_by: 'dashboards.certified_by',
  uuid: 'dashboards.uuid',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const DASHBOARD_ORDER_COLUMNS = Object.keys(LIST_COLUMNS);

/** Columns of `distinct/{column}`. */
export const DASHBOARD_DISTINCT_COLUMNS = { dashboard_title: 'dashboards.dashboard_title', slug: 'dashboards.slug' } as const;


/**
 * The dashboards a non-admin may read, as Superset's DashboardAccessFilter: those they own or created,
 * and published ones holding at least one chart on a dataset within their access scope (even with
 * access to every dataset, a draft of someone else stays hidden). DashboardService.getReadable decides one the same way.
 */
function readableSql(scope: DatasetAccessScope, userId: number) {
  const owned = sql<boolean>`exists (select 1 from dashboard_user du where du.dashboard_id = ${sql.ref('dashboards.id')} and du.user_id = ${userId})`;
  const created = sql<boolean>`${sql.ref('dashboards.created_by_fk')} = ${userId}`;
  const published = sql<boolean>`(${sql.ref('dashboards.published')} and exists (select 1 from dashboard_slices ds join slices s on s.id = ds.slice_id join tables on tables.id = s.datasource_id join dbs on dbs.id = tables.database_id where ds.dashboard_id = ${sql.ref('dashboards.id')} and ${datasetAccessSql(scope)}))`;
  return sql<boolean>`(${owned} or ${created} or ${published})`;
}

/** Dashboards, their owners (`dashboard_user`), roles, charts (`dashboard_slices`) and favourites. */
export class DashboardRepository {
  constructor(private readonly db: MetadataDb) {}

  /** Sets the dashboard's custom tags to these tag ids. */
  setTags(id: number, tagIds: number[], userId: number): Promise<void> {
    return setCustomTags(this.db, 'dashboard', id, tagIds, userId);
  }

  private base() {
    return this.db
      .selectFrom('dashboards')
      .leftJoin('ab_user as cb', 'cb.id', 'dashboards.created_by_fk')
      .leftJoin('ab_user as mb', 'mb.id', 'dashboards.changed_by_fk')
      .selectAll('dashboards')
      .select(['cb.first_name as cb_first', 'cb.last_name as cb_last', 'mb.first_name as mb_first', 'mb.last_name as mb_last']);
  }

  private async hydrate(rows: any[]): Promise<DashboardRecord[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id as number);
    const owners = await ownersByObject(this.db, 'dashboard', ids);
    const roles = await this.db
      .selectFrom('dashboard_roles')
      .innerJoin('ab_role', 'ab_role.id', 'dashboard_roles.role_id')
      .select(['dashboard_roles.dashboard_id', 'ab_role.id', 'ab_role.name'])
      .where('dashboard_roles.dashboard_id', 'in', ids)
      .orderBy('ab_role.id')
      .execute();
    const charts = await this.db.selectFrom('dashboard_slices').select(['dashboard_id', 'slice_id']).where('dashboard_id', 'in', ids).orderBy('slice_id').execute();
    const tags = await tagsByObject(this.db, 'dashboard', ids);
    return rows.map(({ cb_first, cb_last, mb_first, mb_last, ...row }) => ({
      ...row,
      tags: tags.get(row.id) ?? [],
      created_by: row.created_by_fk ? { id: row.created_by_fk, first_name: cb_first ?? '', last_name: cb_last ?? '' } : null,
      changed_by: row.changed_by_fk ? { id: row.changed_by_fk, first_name: mb_first ?? '', last_name: mb_last ?? '' } : null,
      owners: owners.get(row.id) ?? [],
      roles: roles.filter((r) => r.dashboard_id === row.id).map((r) => ({ id: r.id, name: r.name })),
      chart_ids: charts.filter((c) => c.dashboard_id === row.id).map((c) => c.slice_id),
    }));
  }

  async list(query: ListQuery, opts: { scope: DatasetAccessScope; userId: number; admin: boolean }): Promise<{ count: number; rows: DashboardRecord[] }> {
    let base = this.base();
    if (!opts.admin) base = base.where(readableSql(opts.scope, opts.userId));
    const favorite = sql<boolean>`exists (select 1 from favstar f where f.obj_id = ${sql.ref('dashboards.id')} and f.class_name = 'Dashboard' and f.user_id = ${opts.userId})`;
    const { count, rows } = await runListQuery(base, query, {
      columns: LIST_COLUMNS,
      idColumn: 'dashboards.id',
      defaultOrder: ['changed_on', 'desc'],
      custom: {
        'dashboard_title:title_or_slug': (_eb, value) => sql<boolean>`(${sql.ref('dashboards.dashboard_title')} ilike ${like(value)} or ${sql.ref('dashboards.slug')} ilike ${like(value)})`,
        'dashboard_title:dashboard_title_or_slug': (_eb, value) => sql<boolean>`(${sql.ref('dashboards.dashboard_title')} ilike ${like(value)} or ${sql.ref('dashboards.slug')} ilike ${like(value)})`,
        'dashboard_title:ct': (_eb, value) => sql<boolean>`${sql.ref('dashboards.dashboard_title')} ilike ${like(value)}`,
        'owners:rel_m_m': (_eb, value) => sql<boolean>`exists (select 1 from dashboard_user du where du.dashboard_id = ${sql.ref('dashboards.id')} and du.user_id = ${Number(value)})`,
        'owners:nrel_m_m': (_eb, value) => sql<boolean>`not exists (select 1 from dashboard_user du where du.dashboard_id = ${sql.ref('dashboards.id')} and du.user_id = ${Number(value)})`,
        'roles:rel_m_m': (_eb, value) => sql<boolean>`exists (select 1 from dashboard_roles dr where dr.dashboard_id = ${sql.ref('dashboards.id')} and dr.role_id = ${Number(value)})`,
        'id:dashboard_is_favorite': (_eb, value) => (value ? favorite : sql<boolean>`not ${favorite}`),
        // Superset filters on col `id`; any column is taken, so a list screen can offer it beside the favourite filter.
        dashboard_is_certified: (_eb, value) => (value ? sql<boolean>`${sql.ref('dashboards.certified_by')} is not null` : sql<boolean>`${sql.ref('dashboards.certified_by')} is null`),
        'id:dashboard_owned_created_favored_by_me': () =>
          sql<boolean>`(${sql.ref('dashboards.created_by_fk')} = ${opts.userId} or exists (select 1 from dashboard_user du where du.dashboard_id = ${sql.ref('dashboards.id')} and du.user_id = ${opts.userId}) or ${favorite})`,
        'created_by:rel_o_m': (_eb, value) => sql<boolean>`${sql.ref('dashboards.created_by_fk')} = ${Number(value)}`,
        'changed_by:rel_o_m': (_eb, value) => sql<boolean>`${sql.ref('dashboards.changed_by_fk')} = ${Number(value)}`,
        ...tagFilters('dashboard', 'dashboards.id', { byName: 'dashboard_tags', byId: 'dashboard_tag_id' }),
      },
    });
    return { count, rows: await this.hydrate(rows) };
  }

  async get(id: number): Promise<DashboardRecord | undefined> {
    const row = await this.base().where('dashboards.id', '=', id).executeTakeFirst();
    return row ? (await this.hydrate([row]))[0] : undefined;
  }

  /** Reads by id, or by slug when the text is not a whole number (spec 02 §2 `/superset/dashboard/{slug or id}/`). */
  async getByIdOrSlug(idOrSlug: string): Promise<DashboardRecord | undefined> {
    const id = metadataId(idOrSlug);
    if (id !== null) {
      const byId = await this.get(id);
      if (byId) return byId;
    }
    // No slug holds a NUL character (PostgreSQL text cannot), and PostgreSQL refuses one as a parameter.
    if (idOrSlug.includes('\0')) return undefined;
    const row = await this.base().where('dashboards.slug', '=', idOrSlug).executeTakeFirst();
    return row ? (await this.hydrate([row]))[0] : undefined;
  }

  /** Whether another dashboard holds this slug. */
  async slugTaken(slug: string, exceptId: number | null): Promise<boolean> {
    let q = this.db.selectFrom('dashboards').select('id').where('slug', '=', slug);
    if (exceptId !== null) q = q.where('id', '<>', exceptId);
    return !!(await q.executeTakeFirst());
  }

  /** Inserts a dashboard with its owners, roles and charts in one transaction. */
  async create(values: DashboardInsert, links: { owners: number[]; roles: number[]; charts: number[] }): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('dashboards').values(values).returning('id').executeTakeFirstOrThrow();
      if (links.owners.length) await trx.insertInto('dashboard_user').values([...new Set(links.owners)].map((user_id) => ({ dashboard_id: id, user_id }))).execute();
      if (links.roles.length) await trx.insertInto('dashboard_roles').values([...new Set(links.roles)].map((role_id) => ({ dashboard_id: id, role_id }))).execute();
      if (links.charts.length) await trx.insertInto('dashboard_slices').values([...new Set(links.charts)].map((slice_id) => ({ dashboard_id: id, slice_id }))).execute();
      return id;
    });
  }

  /**
   * Updates a dashboard and, when given, replaces its owners, roles and charts, in one transaction.
   * `guard` runs first inside the transaction with the row locked (SELECT ... FOR UPDATE), so a
   * stale-copy check cannot be raced by another save.
   */
  /** Writes json_metadata alone; `touch` says whether the dashboard counts as changed (its changed_on). */
  async setJsonMetadata(id: number, text: string, touch: boolean): Promise<void> {
    await this.db.updateTable('dashboards').set({ json_metadata: text, ...(touch ? { changed_on: new Date() } : {}) }).where('id', '=', id).execute();
  }

  async update(id: number, patch: DashboardPatch, links: { owners?: number[]; roles?: number[]; charts?: number[] }, guard?: (stored: { changed_on: Date | string }) => void): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const stored = await trx.selectFrom('dashboards').select('changed_on').where('id', '=', id).forUpdate().executeTakeFirst();
      if (stored && guard) guard(stored);
      await trx.updateTable('dashboards').set({ ...patch, changed_on: new Date() }).where('id', '=', id).execute();
      if (links.owners) {
        await trx.deleteFrom('dashboard_user').where('dashboard_id', '=', id).execute();
        if (links.owners.length) await trx.insertInto('dashboard_user').values([...new Set(links.owners)].map((user_id) => ({ dashboard_id: id, user_id }))).execute();
      }
      if (links.roles) {
        await trx.deleteFrom('dashboard_roles').where('dashboard_id', '=', id).execute();
        if (links.roles.length) await trx.insertInto('dashboard_roles').values([...new Set(links.roles)].map((role_id) => ({ dashboard_id: id, role_id }))).execute();
      }
      if (links.charts) {
        await trx.deleteFrom('dashboard_slices').where('dashboard_id', '=', id).execute();
        if (links.charts.length) await trx.insertInto('dashboard_slices').values([...new Set(links.charts)].map((slice_id) => ({ dashboard_id: id, slice_id }))).execute();
      }
    });
  }

  async delete(ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('favstar').where('class_name', '=', 'Dashboard').where('obj_id', 'in', ids).execute();
      await trx.deleteFrom('dashboards').where('id', 'in', ids).execute();
    });
  }

  async existingIds(table: 'ab_user' | 'ab_role' | 'slices', ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom(table).select('id').where('id', 'in', ids).execute()).map((r) => r.id);
  }

  async favoriteIds(userId: number, ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('favstar').select('obj_id').where('user_id', '=', userId).where('class_name', '=', 'Dashboard').where('obj_id', 'in', ids).execute()).map((r) => r.obj_id);
  }

  async setFavorite(userId: number, id: number, on: boolean): Promise<void> {
    if (on) await this.db.insertInto('favstar').values({ user_id: userId, class_name: 'Dashboard', obj_id: id }).onConflict((oc) => oc.columns(['user_id', 'class_name', 'obj_id']).doNothing()).execute();
    else await this.db.deleteFrom('favstar').where('user_id', '=', userId).where('class_name', '=', 'Dashboard').where('obj_id', '=', id).execute();
  }

  /** Distinct values of one column among the dashboards the caller may read. */
  async distinct(column: keyof typeof DASHBOARD_DISTINCT_COLUMNS, opts: { scope: DatasetAccessScope; userId: number; admin: boolean; filter: string; page: number; pageSize: number }): Promise<{ count: number; values: string[] }> {
    const ref = sql.ref(DASHBOARD_DISTINCT_COLUMNS[column]);
    let q = this.db.selectFrom('dashboards').where(sql<boolean>`${ref} is not null`);
    if (!opts.admin) q = q.where(readableSql(opts.scope, opts.userId));
    if (opts.filter) q = q.where(sql<boolean>`${ref} ilike ${like(opts.filter)}`);
    const count = Number((await q.select(sql<number>`count(distinct ${ref})`.as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q.select(sql<string>`${ref}`.as('value')).distinct().orderBy('value').limit(opts.pageSize).offset(opts.page * opts.pageSize).execute();
    return { count, values: rows.map((r) => r.value) };
  }

  /** Roles to pick for a dashboard (DASHBOARD_RBAC), by name, paged. */
  async roleChoices(search: string, page: number, pageSize: number): Promise<{ count: number; rows: Array<{ id: number; name: string }> }> {
    let q = this.db.selectFrom('ab_role');
    if (search) q = q.where(sql<boolean>`name ilike ${like(search)}`);
    const count = Number((await q.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q.select(['id', 'name']).orderBy('name').limit(pageSize).offset(page * pageSize).execute();
    return { count, rows };
  }

  /** Stores a dashboard permalink's state under resource `dashboard_permalink`; returns its key. */
  createPermalink(value: string, userId: number): Promise<string> {
    return new PermalinkRepository(this.db).create('dashboard_permalink', value, userId);
  }

  permalink(key: string): Promise<string | null> {
    return new PermalinkRepository(this.db).get('dashboard_permalink', key);
  }
}
