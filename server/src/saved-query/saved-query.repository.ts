import { tagFilters, tagsByObject } from '../tag/tagged';
import { distinctValues } from '../common/distinct';
import type { ListQuery, SavedQueryView } from '@meridian/contracts';
import { sql, type Insertable, type Updateable } from 'kysely';
import { runListQuery } from '../common/list-query';
import type { MetadataDb } from '../db/database';
import type { DB } from '../db/schema';
import { auditPerson } from '../database/humanize';
import { humanizedDelta, pythonIsoformat } from '@meridian/contracts/rules/dates';

const COLUMNS = {
  id: 'saved_query.id',
  label: 'saved_query.label',
  description: 'saved_query.description',
  schema: 'saved_query.schema',
  catalog: 'saved_query.catalog',
  sql: 'saved_query.sql',
  database: 'saved_query.db_id',
  db_id: 'saved_query.db_id',
  created_by: 'saved_query.created_by_fk',
  changed_by: 'saved_query.changed_by_fk',
  changed_on: 'saved_query.changed_on',
  changed_on_delta_humanized: 'saved_query.changed_on',
  created_on: 'saved_query.created_on',
  last_run: 'saved_query.last_run',
  rows: 'saved_query.rows',
  user_id: 'saved_query.user_id',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const SAVED_QUERY_ORDER_COLUMNS = Object.keys(COLUMNS);

type Row = Awaited<ReturnType<SavedQueryRepository['baseRow']>>;

function toView(r: NonNullable<Row>): SavedQueryView {
  let extra: Record<string, unknown> = {};
  try {
    extra = r.extra_json ? JSON.parse(r.extra_json) : {};
  } catch {
    extra = {};
  }
  return {
    id: r.id,
    uuid: r.uuid,
    label: r.label,
    description: r.description,
    db_id: r.db_id,
    database: r.db_id ? { id: r.db_id, database_name: r.database_name ?? '' } : null,
    catalog: r.catalog,
    schema: r.schema,
    sql: r.sql,
    sql_tables: [],
    template_parameters: r.template_parameters,
    extra_json: r.extra_json,
    extra,
    rows: r.rows,
    last_run: pythonIsoformat(r.last_run),
    // Superset's SavedQuery.last_run_delta_humanized humanizes changed_on, not last_run (models/sql_lab.py).
    last_run_delta_humanized: humanizedDelta(r.changed_on),
    created_on: pythonIsoformat(r.created_on),
    changed_on: pythonIsoformat(r.changed_on),
    changed_on_delta_humanized: humanizedDelta(r.changed_on),
    created_by: auditPerson(r.created_by_fk, r.cb_first, r.cb_last),
    changed_by: auditPerson(r.changed_by_fk, r.mb_first, r.mb_last),
    tags: [],
  };
}

/** Saved queries (`saved_query`); rows in, contract views out. */
export class SavedQueryRepository {
  constructor(private readonly db: MetadataDb) {}

  /** `distinct/{schema,catalog}` among one user's saved queries (`userId` null: everyone's). */
  distinct(column: 'schema' | 'catalog', userId: number | null, page: { filter: string; page: number; pageSize: number }) {
    let base = this.db.selectFrom('saved_query');
    if (userId !== null) base = base.where('saved_query.user_id', '=', userId);
    return distinctValues(base, `saved_query.${column}`, page);
  }

  private base() {
    return this.db
      .selectFrom('saved_query')
      .leftJoin('dbs', 'dbs.id', 'saved_query.db_id')
      .leftJoin('ab_user as cb', 'cb.id', 'saved_query.created_by_fk')
      .leftJoin('ab_user as mb', 'mb.id', 'saved_query.changed_by_fk')
      .selectAll('saved_query')
      .select(['dbs.database_name', 'cb.first_name as cb_first', 'cb.last_name as cb_last', 'mb.first_name as mb_first', 'mb.last_name as mb_last']);
  }

  baseRow(id: number) {
    return this.base().where('saved_query.id', '=', id).executeTakeFirst();
  }

  /** Lists saved queries; `userId` null means everyone's. `actorId` is whose favourites `saved_query_is_fav` means. */
  async list(query: ListQuery, userId: number | null, actorId: number): Promise<{ count: number; rows: SavedQueryView[] }> {
    let base = this.base();
    if (userId !== null) base = base.where('saved_query.user_id', '=', userId);
    const like = (v: unknown) => `%${String(v)}%`;
    const { count, rows } = await runListQuery(base, query, {
      columns: COLUMNS,
      idColumn: 'saved_query.id',
      defaultOrder: ['changed_on', 'desc'],
      custom: {
        // Superset's SavedQueryFavoriteFilter: favstar rows of class 'query'.
        'id:saved_query_is_fav': (_eb, v) =>
          sql<boolean>`${sql.raw(v === false || v === 'false' ? 'not ' : '')}exists (select 1 from favstar f where f.obj_id = ${sql.ref('saved_query.id')} and f.class_name = 'query' and f.user_id = ${actorId})`,
        all_text: (_eb, v) => sql<boolean>`(${sql.ref('saved_query.label')} ilike ${like(v)} or ${sql.ref('saved_query.sql')} ilike ${like(v)} or ${sql.ref('saved_query.description')} ilike ${like(v)})`,
        ...tagFilters('query', 'saved_query.id', { byName: 'saved_query_tags', byId: 'saved_query_tag_id' }),
      },
    });
    const tags = await tagsByObject(this.db, 'query', rows.map((r) => r.id));
    return { count, rows: rows.map((r) => ({ ...toView(r), tags: tags.get(r.id) ?? [] })) };
  }

  async get(id: number): Promise<(SavedQueryView & { user_id: number | null }) | undefined> {
    const row = await this.baseRow(id);
    return row ? { ...toView(row), user_id: row.user_id } : undefined;
  }

  /** Owners of the given ids (missing ids are absent). */
  owners(ids: number[]): Promise<{ id: number; user_id: number | null }[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('saved_query').select(['id', 'user_id']).where('id', 'in', ids).execute();
  }

  async create(values: Insertable<DB['saved_query']>): Promise<number> {
    const { id } = await this.db.insertInto('saved_query').values(values).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  async update(id: number, patch: Updateable<DB['saved_query']>): Promise<void> {
    await this.db.updateTable('saved_query').set({ ...patch, changed_on: new Date() }).where('id', '=', id).execute();
  }

  /** Deletes the ids in one transaction. */
  async delete(ids: number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('tab_state').set({ saved_query_id: null }).where('saved_query_id', 'in', ids).execute();
      await trx.deleteFrom('saved_query').where('id', 'in', ids).execute();
    });
  }
}
