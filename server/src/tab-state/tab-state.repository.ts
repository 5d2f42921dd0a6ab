import type { TableSchemaView } from '@meridian/contracts';
import type { Insertable, Updateable } from 'kysely';
import type { MetadataDb } from '../db/database';
import type { DB } from '../db/schema';

export type TabStatePatch = Updateable<DB['tab_state']>;

function parseJson(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** SQL Lab's server-side tab states (`tab_state`) and the tables browsed in them (`table_schema`). */
export class TabStateRepository {
  constructor(private readonly db: MetadataDb) {}

  /** Inserts an active tab for the user and deactivates the user's other tabs, in one transaction. */
  async create(values: Insertable<DB['tab_state']>): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await trx.updateTable('tab_state').set({ active: false }).where('user_id', '=', values.user_id).execute();
      const { id } = await trx.insertInto('tab_state').values({ ...values, active: true }).returning('id').executeTakeFirstOrThrow();
      return id;
    });
  }

  get(id: number) {
    return this.db
      .selectFrom('tab_state')
      .leftJoin('saved_query', 'saved_query.id', 'tab_state.saved_query_id')
      .selectAll('tab_state')
      .select(['saved_query.label as saved_query_label', 'saved_query.sql as saved_query_sql'])
      .where('tab_state.id', '=', id)
      .executeTakeFirst();
  }

  ownerOf(id: number) {
    return this.db.selectFrom('tab_state').select(['id', 'user_id']).where('id', '=', id).executeTakeFirst();
  }

  listForUser(userId: number) {
    return this.db.selectFrom('tab_state').select(['id', 'label', 'active', 'saved_query_id']).where('user_id', '=', userId).orderBy('id').execute();
  }

  /** The user's active tab, else any of theirs (Superset's bootstrap). */
  async activeForUser(userId: number): Promise<number | null> {
    const row = await this.db.selectFrom('tab_state').select('id').where('user_id', '=', userId).orderBy('active', 'desc').orderBy('id', 'desc').executeTakeFirst();
    return row?.id ?? null;
  }

  async update(id: number, patch: TabStatePatch): Promise<void> {
    await this.db.updateTable('tab_state').set({ ...patch, changed_on: new Date() }).where('id', '=', id).execute();
  }

  async activate(userId: number, id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('tab_state').set({ active: false }).where('user_id', '=', userId).execute();
      await trx.updateTable('tab_state').set({ active: true }).where('id', '=', id).execute();
    });
  }

  /** Deletes a tab with its table schemas. */
  async delete(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('table_schema').where('tab_state_id', '=', id).execute();
      await trx.deleteFrom('tab_state').where('id', '=', id).execute();
    });
  }

  async tableSchemas(tabId: number): Promise<TableSchemaView[]> {
    const rows = await this.db.selectFrom('table_schema').selectAll().where('tab_state_id', '=', tabId).orderBy('id').execute();
    return rows.map((r) => ({
      id: r.id,
      tab_state_id: r.tab_state_id,
      database_id: r.database_id,
      catalog: r.catalog,
      schema: r.schema,
      table: r.table,
      description: parseJson(r.description),
      expanded: r.expanded,
    }));
  }

  /** Adds a table to a tab, replacing the same table already there. */
  async addTableSchema(values: Insertable<DB['table_schema']>): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      let del = trx.deleteFrom('table_schema').where('tab_state_id', '=', values.tab_state_id).where('database_id', '=', values.database_id).where('table', '=', values.table ?? '');
      del = values.schema == null ? del.where('schema', 'is', null) : del.where('schema', '=', values.schema);
      del = values.catalog == null ? del.where('catalog', 'is', null) : del.where('catalog', '=', values.catalog);
      await del.execute();
      const { id } = await trx.insertInto('table_schema').values(values).returning('id').executeTakeFirstOrThrow();
      return id;
    });
  }

  /** A table schema with the owner of its tab. */
  tableSchemaOwner(id: number) {
    return this.db
      .selectFrom('table_schema')
      .innerJoin('tab_state', 'tab_state.id', 'table_schema.tab_state_id')
      .select(['table_schema.id', 'tab_state.user_id'])
      .where('table_schema.id', '=', id)
      .executeTakeFirst();
  }

  async setExpanded(id: number, expanded: boolean): Promise<void> {
    await this.db.updateTable('table_schema').set({ expanded, changed_on: new Date() }).where('id', '=', id).execute();
  }

  async deleteTableSchema(id: number): Promise<void> {
    await this.db.deleteFrom('table_schema').where('id', '=', id).execute();
  }
}
