import type { QueryDict, TableSchemaCreate, TabStateCreate, TabStateUpdate } from '@meridian/contracts';
import { Forbidden, Invalid, NotFound } from '../errors/domain-errors';
import { queryToDict, type QueryRepository } from '../query/query.repository';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { DatabaseService } from '../database/database.service';
import type { TabStatePatch, TabStateRepository } from './tab-state.repository';

/** Superset's `DATABASE_KEYS` of the SQL Lab bootstrap. */
const BOOTSTRAP_DATABASE_KEYS = [
  'allow_file_upload', 'allow_ctas', 'allow_cvas', 'allow_dml', 'allow_run_async', 'allows_subquery', 'backend', 'database_name',
  'expose_in_sqllab', 'force_ctas_schema', 'id', 'disable_data_preview', 'disable_drill_to_detail', 'allow_multi_catalog', 'allows_cost_estimate', 'extra',
];

/** Superset's `TabState.to_dict()`. */
export interface TabStateView {
  id: number;
  user_id: number;
  label: string | null;
  active: boolean;
  database_id: number | null;
  catalog: string | null;
  schema: string | null;
  table_schemas: Awaited<ReturnType<TabStateRepository['tableSchemas']>>;
  sql: string | null;
  query_limit: number | null;
  latest_query: QueryDict | null;
  autorun: boolean;
  template_params: string | null;
  hide_left_bar: boolean;
  saved_query: { id: number; label: string | null; sql: string | null } | null;
  extra_json: Record<string, unknown> | null;
}

/** SQL Lab tab persistence (`/tabstateview/`, `/tableschemaview/`): a user reaches only their own tabs. */
export class TabStateService {
  constructor(private readonly deps: { tabStates: TabStateRepository; queries: QueryRepository; databases: DatabaseService; security: SecurityService }) {}

  private require(actor: Actor | null): asserts actor is Actor {
    this.deps.security.require(actor, 'can_sqllab', 'Superset');
  }

  /** 404 when missing, 403 when another user's (Superset's TabStateView). */
  private async own(actor: Actor, id: number): Promise<void> {
    const tab = await this.deps.tabStates.ownerOf(id);
    if (!tab) throw new NotFound();
    if (tab.user_id !== actor.userId) throw new Forbidden();
  }

  async create(actor: Actor | null, editor: TabStateCreate): Promise<number> {
    this.require(actor);
    if (editor.dbId != null) await this.deps.databases.getAccessible(actor, editor.dbId);
    return this.deps.tabStates.create({
      user_id: actor.userId,
      label: editor.name ?? 'Untitled Query',
      database_id: editor.dbId ?? null,
      catalog: editor.catalog ?? null,
      schema: editor.schema ?? null,
      sql: editor.sql ?? 'SELECT ...',
      query_limit: editor.queryLimit ?? null,
      hide_left_bar: editor.hideLeftBar ?? false,
      saved_query_id: editor.remoteId ?? null,
      template_params: editor.templateParams ?? null,
      autorun: editor.autorun ?? false,
    });
  }

  async get(actor: Actor | null, id: number): Promise<TabStateView> {
    this.require(actor);
    await this.own(actor, id);
    const tab = (await this.deps.tabStates.get(id))!;
    const latest = tab.latest_query_id ? await this.deps.queries.getByClientId(tab.latest_query_id) : undefined;
    let extra: Record<string, unknown> | null = null;
    try {
      extra = tab.extra_json ? JSON.parse(tab.extra_json) : null;
    } catch {
      extra = null;
    }
    return {
      id: tab.id,
      user_id: tab.user_id,
      label: tab.label,
      active: tab.active,
      database_id: tab.database_id,
      catalog: tab.catalog,
      schema: tab.schema,
      table_schemas: await this.deps.tabStates.tableSchemas(id),
      sql: tab.sql,
      query_limit: tab.query_limit,
      latest_query: latest && latest.user_id === actor.userId ? queryToDict(latest) : null,
      autorun: tab.autorun,
      template_params: tab.template_params,
      hide_left_bar: tab.hide_left_bar,
      saved_query: tab.saved_query_id ? { id: tab.saved_query_id, label: tab.saved_query_label, sql: tab.saved_query_sql } : null,
      extra_json: extra,
    };
  }

  async update(actor: Actor | null, id: number, input: TabStateUpdate): Promise<void> {
    this.require(actor);
    await this.own(actor, id);
    const patch: TabStatePatch = {};
    for (const [key, value] of Object.entries(input)) {
      if (value === undefined) continue;
      if (key === 'extra_json') patch.extra_json = value === null ? null : typeof value === 'string' ? value : JSON.stringify(value);
      else (patch as Record<string, unknown>)[key] = value;
    }
    if (patch.database_id != null) await this.deps.databases.getAccessible(actor, patch.database_id);
    if (Object.keys(patch).length) await this.deps.tabStates.update(id, patch);
  }

  async activate(actor: Actor | null, id: number): Promise<void> {
    this.require(actor);
    await this.own(actor, id);
    await this.deps.tabStates.activate(actor.userId, id);
  }

  async delete(actor: Actor | null, id: number): Promise<void> {
    this.require(actor);
    await this.own(actor, id);
    await this.deps.tabStates.delete(id);
  }

  /** Moves one of the user's queries into the tab (`migrate_query`). */
  async migrateQuery(actor: Actor | null, id: number, clientId: string): Promise<void> {
    this.require(actor);
    await this.own(actor, id);
    await this.deps.queries.moveToEditor(clientId, actor.userId, String(id));
  }

  async deleteQuery(actor: Actor | null, id: number, clientId: string): Promise<void> {
    this.require(actor);
    await this.own(actor, id);
    await this.deps.queries.deleteForUser(clientId, actor.userId);
  }

  async addTable(actor: Actor | null, table: TableSchemaCreate): Promise<number> {
    this.require(actor);
    const tabId = Number(table.queryEditorId);
    if (!Number.isInteger(tabId)) throw new Invalid({ queryEditorId: ['Not a valid tab id.'] });
    await this.own(actor, tabId);
    await this.deps.databases.getAccessible(actor, table.dbId);
    return this.deps.tabStates.addTableSchema({
      tab_state_id: tabId,
      database_id: table.dbId,
      catalog: table.catalog ?? null,
      schema: table.schema ?? null,
      table: table.name,
      description: JSON.stringify(table),
      expanded: true,
    });
  }

  private async ownTable(actor: Actor, id: number): Promise<void> {
    const row = await this.deps.tabStates.tableSchemaOwner(id);
    if (!row) throw new NotFound();
    if (row.user_id !== actor.userId) throw new Forbidden();
  }

  async setTableExpanded(actor: Actor | null, id: number, expanded: boolean): Promise<void> {
    this.require(actor);
    await this.ownTable(actor, id);
    await this.deps.tabStates.setExpanded(id, expanded);
  }

  async deleteTable(actor: Actor | null, id: number): Promise<void> {
    this.require(actor);
    await this.ownTable(actor, id);
    await this.deps.tabStates.deleteTableSchema(id);
  }

  /**
   * `GET /api/v1/sqllab/`: Superset's SQL Lab bootstrap — the user's tabs (id, label and the saved query each is tied
   * to, so a saved query's link finds its tab without loading every tab), the active
   * tab, the databases they may use in SQL Lab and the queries of their tabs.
   */
  async bootstrap(actor: Actor | null) {
    this.require(actor);
    const tabs = await this.deps.tabStates.listForUser(actor.userId);
    const activeId = await this.deps.tabStates.activeForUser(actor.userId);
    const databases: Record<number, Record<string, unknown>> = {};
    for (const db of await this.deps.databases.accessible(actor)) {
      if (!db.expose_in_sqllab) continue;
      const view = this.deps.databases.toView(db);
      databases[db.id] = Object.fromEntries(Object.entries(view).filter(([key]) => BOOTSTRAP_DATABASE_KEYS.includes(key)));
    }
    const queries: Record<string, QueryDict> = {};
    for (const q of await this.deps.queries.forEditors(actor.userId, tabs.map((t) => String(t.id)))) queries[q.client_id] = queryToDict(q);
    return {
      tab_state_ids: tabs.map((t) => ({ id: t.id, label: t.label, saved_query_id: t.saved_query_id ?? null })),
      active_tab: activeId ? await this.get(actor, activeId) : null,
      databases,
      queries,
    };
  }
}
