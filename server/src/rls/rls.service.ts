import { rlsClauses, rlsRulesFor, type ListQuery, type ListResult, type RlsCreate, type RlsUpdate } from '@meridian/contracts';
import { runListQuery } from '../common/list-query';
import { auditPerson } from '../database/humanize';
import { humanizedDelta, pythonIsoformat } from '@meridian/contracts/rules/dates';
import { isUniqueViolation, type MetadataDb } from '../db/database';
import { NotFound, Unprocessable } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';

const VIEW = 'Row Level Security';

const COLUMNS = {
  id: 'f.id',
  name: 'f.name',
  description: 'f.description',
  filter_type: 'f.filter_type',
  group_key: 'f.group_key',
  clause: 'f.clause',
  changed_on: 'f.changed_on',
  changed_on_delta_humanized: 'f.changed_on',
  created_by: 'f.created_by_fk',
  changed_by: 'f.changed_by_fk',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const RLS_ORDER_COLUMNS = Object.keys(COLUMNS);

/** Superset's messages (superset/commands/exceptions.py, commands/security). */
export const RLS_MESSAGES = {
  rolesNotFound: 'Some roles do not exist',
  tablesNotFound: 'Dataset does not exist',
  nameExists: 'A rule with this name already exists.',
} as const;

/**
 * Row-level security rules (Superset's RLSRestApi, `can_read` / `can_write` on 'Row Level Security', admins
 * only by default), and the clauses they add to a user's queries of a dataset (`clausesFor`), which chart
 * data, samples, drill to detail, filter values and reports all read through ChartDataService.
 */
export class RlsService {
  constructor(private readonly deps: { db: MetadataDb; security: SecurityService }) {}

  private base() {
    return this.deps.db
      .selectFrom('row_level_security_filters as f')
      .leftJoin('ab_user as mb', 'mb.id', 'f.changed_by_fk')
      .selectAll('f')
      .select(['mb.first_name as mb_first', 'mb.last_name as mb_last']);
  }

  /** Tables and roles of the rules, by rule id. */
  private async links(ids: number[]) {
    const tables = new Map<number, Array<{ id: number; schema: string | null; table_name: string }>>();
    const roles = new Map<number, Array<{ id: number; name: string }>>();
    if (!ids.length) return { tables, roles };
    const [t, r] = await Promise.all([
      this.deps.db.selectFrom('rls_filter_tables as l').innerJoin('tables as t', 't.id', 'l.table_id').select(['l.rls_filter_id', 't.id', 't.schema', 't.table_name']).where('l.rls_filter_id', 'in', ids).orderBy('t.table_name').execute(),
      this.deps.db.selectFrom('rls_filter_roles as l').innerJoin('ab_role as r', 'r.id', 'l.role_id').select(['l.rls_filter_id', 'r.id', 'r.name']).where('l.rls_filter_id', 'in', ids).orderBy('r.name').execute(),
    ]);
    for (const row of t) tables.set(row.rls_filter_id, [...(tables.get(row.rls_filter_id) ?? []), { id: row.id, schema: row.schema, table_name: row.table_name }]);
    for (const row of r) roles.set(row.rls_filter_id, [...(roles.get(row.rls_filter_id) ?? []), { id: row.id, name: row.name }]);
    return { tables, roles };
  }

  async list(actor: Actor | null, query: ListQuery): Promise<ListResult<Record<string, unknown>>> {
    this.deps.security.require(actor, 'can_read', VIEW);
    const { count, rows } = await runListQuery(this.base(), query, {
      columns: COLUMNS,
      custom: {
        'tables:rel_m_m': (eb, v) => eb.exists(eb.selectFrom('rls_filter_tables as l').select('l.id').whereRef('l.rls_filter_id', '=', 'f.id').where('l.table_id', '=', Number(v))),
        'roles:rel_m_m': (eb, v) => eb.exists(eb.selectFrom('rls_filter_roles as l').select('l.id').whereRef('l.rls_filter_id', '=', 'f.id').where('l.role_id', '=', Number(v))),
      },
      idColumn: 'f.id',
      defaultOrder: ['changed_on', 'desc'],
    });
    const ids = rows.map((r) => r.id);
    const { tables, roles } = await this.links(ids);
    return {
      count,
      ids,
      result: rows.map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        filter_type: r.filter_type,
        tables: (tables.get(r.id) ?? []).map(({ id, table_name }) => ({ id, table_name })),
        roles: roles.get(r.id) ?? [],
        clause: r.clause,
        group_key: r.group_key,
        changed_on_delta_humanized: humanizedDelta(r.changed_on),
        changed_by: auditPerson(r.changed_by_fk, r.mb_first, r.mb_last),
      })),
    };
  }

  async get(actor: Actor | null, id: number) {
    this.deps.security.require(actor, 'can_read', VIEW);
    const row = await this.base().where('f.id', '=', id).executeTakeFirst();
    if (!row) throw new NotFound();
    const { tables, roles } = await this.links([id]);
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      filter_type: row.filter_type,
      tables: tables.get(id) ?? [],
      roles: roles.get(id) ?? [],
      group_key: row.group_key,
      clause: row.clause,
      changed_on: pythonIsoformat(row.changed_on),
    };
  }

  /** Field errors as Superset's commands raise them: unknown tables or roles, a name in use. */
  private async validate(input: RlsUpdate, id: number | null): Promise<void> {
    const errors: Record<string, string[]> = {};
    if (input.tables) {
      const found = await this.deps.db.selectFrom('tables').select('id').where('id', 'in', input.tables.length ? input.tables : [-1]).execute();
      if (found.length !== new Set(input.tables).size) errors.tables = [RLS_MESSAGES.tablesNotFound];
    }
    if (input.roles?.length) {
      const found = await this.deps.db.selectFrom('ab_role').select('id').where('id', 'in', input.roles).execute();
      if (found.length !== new Set(input.roles).size) errors.roles = [RLS_MESSAGES.rolesNotFound];
    }
    if (input.name !== undefined) {
      const clash = await this.deps.db.selectFrom('row_level_security_filters').select('id').where('name', '=', input.name).where('id', '!=', id ?? -1).executeTakeFirst();
      if (clash) errors.name = [RLS_MESSAGES.nameExists];
    }
    if (Object.keys(errors).length) throw new Unprocessable(errors);
  }

  private async writeLinks(db: MetadataDb, id: number, input: RlsUpdate): Promise<void> {
    if (input.tables) {
      await db.deleteFrom('rls_filter_tables').where('rls_filter_id', '=', id).execute();
      await db.insertInto('rls_filter_tables').values([...new Set(input.tables)].map((table_id) => ({ table_id, rls_filter_id: id }))).execute();
    }
    if (input.roles) {
      await db.deleteFrom('rls_filter_roles').where('rls_filter_id', '=', id).execute();
      if (input.roles.length) await db.insertInto('rls_filter_roles').values([...new Set(input.roles)].map((role_id) => ({ role_id, rls_filter_id: id }))).execute();
    }
  }

  /** A write that another writer beat to the same name answers as the name check would have. */
  private async named<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new Unprocessable({ name: [RLS_MESSAGES.nameExists] });
      throw error;
    }
  }

  async create(actor: Actor | null, input: RlsCreate): Promise<number> {
    this.deps.security.require(actor, 'can_write', VIEW);
    await this.validate(input, null);
    // The rule and its tables and roles are stored together, or not at all.
    return this.named(() => this.deps.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('row_level_security_filters')
        .values({ name: input.name, description: input.description ?? null, filter_type: input.filter_type, clause: input.clause, group_key: input.group_key || null, created_by_fk: actor.userId, changed_by_fk: actor.userId })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.writeLinks(trx, id, input);
      return id;
    }));
  }

  async update(actor: Actor | null, id: number, input: RlsUpdate): Promise<void> {
    this.deps.security.require(actor, 'can_write', VIEW);
    await this.get(actor, id);
    await this.validate(input, id);
    const set: Record<string, unknown> = { changed_by_fk: actor!.userId, changed_on: new Date() };
    for (const key of ['name', 'description', 'filter_type', 'clause'] as const) if (input[key] !== undefined) set[key] = input[key];
    if (input.group_key !== undefined) set.group_key = input.group_key || null;
    await this.named(() => this.deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('row_level_security_filters').set(set).where('id', '=', id).execute();
      await this.writeLinks(trx, id, input);
    }));
  }

  /** Deletes the rules; all of them must exist (404 otherwise, nothing deleted). */
  async delete(actor: Actor | null, ids: number[]): Promise<number> {
    this.deps.security.require(actor, 'can_write', VIEW);
    const found = await this.deps.db.selectFrom('row_level_security_filters').select('id').where('id', 'in', ids).execute();
    if (found.length !== new Set(ids).size) throw new NotFound();
    await this.deps.db.deleteFrom('row_level_security_filters').where('id', 'in', ids).execute();
    return found.length;
  }

  /**
   * The WHERE clauses the actor's queries of a dataset get (none for a dataset without rules); a guest of an
   * embedded dashboard also gets its token's rules for the dataset.
   */
  async clausesFor(actor: Actor, datasetId: number): Promise<string[]> {
    const guest = (actor.guest?.rls ?? []).filter((r) => r.dataset === undefined || r.dataset === datasetId).map((r) => `(${r.clause.trim()})`);
    return [...(await this.storedClauses(actor, datasetId)), ...guest];
  }

  /**
   * On every chart data call: the dataset's rules with their roles' ids and names. Most datasets have none, and a
   * lookup by the indexed table id costs the embedded metadata database a tenth of the four-table join (~0.4 ms
   * against ~3.5 ms, 50 times per dashboard), so the join runs only for a dataset that has rules.
   */
  private async storedClauses(actor: Actor, datasetId: number): Promise<string[]> {
    const any = await this.deps.db.selectFrom('rls_filter_tables').select('id').where('table_id', '=', datasetId).limit(1).executeTakeFirst();
    if (!any) return [];
    const rows = await this.deps.db
      .selectFrom('rls_filter_tables as t')
      .innerJoin('row_level_security_filters as f', 'f.id', 't.rls_filter_id')
      .leftJoin('rls_filter_roles as r', 'r.rls_filter_id', 'f.id')
      .leftJoin('ab_role as role', 'role.id', 'r.role_id')
      .select(['f.id', 'f.filter_type', 'f.clause', 'f.group_key', 'r.role_id', 'role.name as role_name'])
      .where('t.table_id', '=', datasetId)
      .execute();
    if (!rows.length) return [];
    const actorRoles = new Set(Object.keys(actor.roles ?? {}));
    const held = rows.filter((row) => row.role_id !== null && row.role_name !== null && actorRoles.has(row.role_name)).map((row) => row.role_id!);
    const rules = new Map<number, { id: number; filter_type: string; clause: string; group_key: string | null; roleIds: number[] }>();
    for (const row of rows) {
      const rule = rules.get(row.id) ?? { id: row.id, filter_type: row.filter_type, clause: row.clause, group_key: row.group_key, roleIds: [] };
      if (row.role_id !== null) rule.roleIds.push(row.role_id);
      rules.set(row.id, rule);
    }
    return rlsClauses(rlsRulesFor([...rules.values()], held));
  }
}
