import type { ListQuery } from '@meridian/contracts';
import { sql } from 'kysely';
import { runListQuery } from '../common/list-query';
import type { MetadataDb } from '../db/database';
import type { DatabaseRow, DB } from '../db/schema';
import { ensurePermissionView } from '../security/security.repository';
import { datasetPermName } from '../dataset/dataset.repository';
import type { Insertable, Updateable } from 'kysely';

export type DatabaseInsert = Insertable<DB['dbs']>;
export type DatabasePatch = Updateable<DB['dbs']>;

/** A database row with the names of its creator and last editor. */
export type DatabaseRecord = DatabaseRow & {
  created_by_first_name: string | null;
  created_by_last_name: string | null;
  changed_by_first_name: string | null;
  changed_by_last_name: string | null;
};

const LIST_COLUMNS = {
  id: 'dbs.id',
  database_name: 'dbs.database_name',
  expose_in_sqllab: 'dbs.expose_in_sqllab',
  allow_run_async: 'dbs.allow_run_async',
  allow_dml: 'dbs.allow_dml',
  allow_ctas: 'dbs.allow_ctas',
  allow_cvas: 'dbs.allow_cvas',
  allow_file_upload: 'dbs.allow_file_upload',
  changed_on: 'dbs.changed_on',
  created_on: 'dbs.created_on',
  uuid: 'dbs.uuid',
  backend: 'dbs.sqlalchemy_uri',
  created_by: 'dbs.created_by_fk',
  changed_by: 'dbs.changed_by_fk',
};

/** The `database_access` view name Superset gives a database: `[name].(id:N)`. */
export function databasePermName(name: string, id: number): string {
  return `[${name}].(id:${id})`;
}

/** Analytic database connections (`dbs`) and their `database_access` permission views. */
export class DatabaseRepository {
  constructor(private readonly db: MetadataDb) {}

  /**
   * What uses a database (Superset's `related_objects`): the charts on its datasets, the dashboards showing
   * them, and the SQL Lab tabs pointed at it.
   */
  /**
   * `sync_permissions/`: makes sure the database's database_access permission and each of its datasets'
   * datasource_access permissions exist under their current names; answers how many datasets it covered.
   */
  async syncPermissions(id: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const db = await trx.selectFrom('dbs').select('database_name').where('id', '=', id).executeTakeFirstOrThrow();
      await ensurePermissionView(trx as unknown as MetadataDb, 'database_access', databasePermName(db.database_name, id));
      const tables = await trx.selectFrom('tables').select(['id', 'table_name']).where('database_id', '=', id).execute();
      for (const t of tables) await ensurePermissionView(trx as unknown as MetadataDb, 'datasource_access', datasetPermName(db.database_name, t.table_name, t.id));
      return tables.length;
    });
  }

  async relatedObjects(id: number) {
    const charts = await this.db
      .selectFrom('slices')
      .innerJoin('tables', 'tables.id', 'slices.datasource_id')
      .where('slices.datasource_type', '=', 'table')
      .where('tables.database_id', '=', id)
      .select(['slices.id', 'slices.slice_name', 'slices.viz_type'])
      .orderBy('slices.id')
      .execute();
    const dashboards = charts.length
      ? await this.db
          .selectFrom('dashboards')
          .where('dashboards.id', 'in', this.db.selectFrom('dashboard_slices').select('dashboard_id').where('slice_id', 'in', charts.map((c) => c.id)))
          .select(['dashboards.id', 'dashboards.json_metadata', 'dashboards.slug', 'dashboards.dashboard_title as title'])
          .orderBy('dashboards.id')
          .execute()
      : [];
    const tabs = await this.db.selectFrom('tab_state').where('database_id', '=', id).select(['id', 'label', 'active']).orderBy('id').execute();
    return { charts, dashboards, tabs };
  }

  private base() {
    return this.db
      .selectFrom('dbs')
      .leftJoin('ab_user as cb', 'cb.id', 'dbs.created_by_fk')
      .leftJoin('ab_user as mb', 'mb.id', 'dbs.changed_by_fk')
      .selectAll('dbs')
      .select(['cb.first_name as created_by_first_name', 'cb.last_name as created_by_last_name', 'mb.first_name as changed_by_first_name', 'mb.last_name as changed_by_last_name']);
  }

  /** Lists databases; `accessibleIds` null means all. */
  async list(query: ListQuery, accessibleIds: number[] | null): Promise<{ count: number; rows: DatabaseRecord[] }> {
    let base = this.base();
    if (accessibleIds) base = base.where('dbs.id', 'in', accessibleIds.length ? accessibleIds : [-1]);
    return runListQuery(base, query, {
      columns: LIST_COLUMNS,
      idColumn: 'dbs.id',
      defaultOrder: ['changed_on', 'desc'],
      custom: {
        'database_name:ct': (eb, value) => sql<boolean>`${sql.ref('dbs.database_name')} ilike ${`%${String(value)}%`}`,
        database_user_text: (eb, value) => sql<boolean>`${sql.ref('dbs.database_name')} ilike ${`%${String(value)}%`}`,
      },
    }) as Promise<{ count: number; rows: DatabaseRecord[] }>;
  }

  get(id: number): Promise<DatabaseRecord | undefined> {
    return this.base().where('dbs.id', '=', id).executeTakeFirst() as Promise<DatabaseRecord | undefined>;
  }

  findByName(name: string): Promise<DatabaseRecord | undefined> {
    return this.base().where('dbs.database_name', '=', name).executeTakeFirst() as Promise<DatabaseRecord | undefined>;
  }

  /** Every database (id, name, flags) — for the SQL Lab bootstrap and access filtering. */
  all(): Promise<DatabaseRecord[]> {
    return this.base().orderBy('dbs.database_name').execute() as Promise<DatabaseRecord[]>;
  }

  /** Inserts a database and its `database_access` permission view in one transaction. */
  async create(values: DatabaseInsert): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('dbs').values(values).returning('id').executeTakeFirstOrThrow();
      await ensurePermissionView(trx as unknown as MetadataDb, 'database_access', databasePermName(values.database_name, id));
      return id;
    });
  }

  /** Updates a database; a rename renames its permission view too. */
  async update(id: number, oldName: string, patch: DatabasePatch): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('dbs').set({ ...patch, changed_on: new Date() }).where('id', '=', id).execute();
      if (patch.database_name && patch.database_name !== oldName) {
        await trx.updateTable('ab_view_menu').set({ name: databasePermName(patch.database_name, id) }).where('name', '=', databasePermName(oldName, id)).execute();
      }
    });
  }

  countDatasets(id: number): Promise<number> {
    return this.db
      .selectFrom('tables')
      .select(sql<number>`count(*)`.as('n'))
      .where('database_id', '=', id)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }

  /** Deletes a database with its permission view (queries, tab states and saved queries cascade). */
  async delete(id: number, name: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const view = await trx.selectFrom('ab_view_menu').select('id').where('name', '=', databasePermName(name, id)).executeTakeFirst();
      if (view) {
        const pvs = await trx.selectFrom('ab_permission_view').select('id').where('view_menu_id', '=', view.id).execute();
        if (pvs.length) {
          await trx.deleteFrom('ab_permission_view_role').where('permission_view_id', 'in', pvs.map((p) => p.id)).execute();
          await trx.deleteFrom('ab_permission_view').where('view_menu_id', '=', view.id).execute();
        }
        await trx.deleteFrom('ab_view_menu').where('id', '=', view.id).execute();
      }
      await trx.deleteFrom('dbs').where('id', '=', id).execute();
    });
  }
}
