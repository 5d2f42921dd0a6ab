import { distinctValues } from '../common/distinct';
import type { ListQuery, QueryDict } from '@meridian/contracts';
import { sql, type ColumnType, type Insertable, type RawBuilder, type Updateable } from 'kysely';
import { runListQuery } from '../common/list-query';
import type { MetadataDb } from '../db/database';
import type { DB, QueryRow } from '../db/schema';
import { pythonIsoformat } from '@meridian/contracts/rules/dates';

export type QueryInsert = Insertable<DB['query']>;
export type QueryPatch = Updateable<DB['query']>;

/** A query row with its database name and user names. */
export type QueryRecord = QueryRow & {
  database_name: string | null;
  user_first_name: string | null;
  user_last_name: string | null;
  user_username: string | null;
};

/** States after which nothing changes a query any more. */
export const FINISHED_STATES = ['success', 'failed', 'stopped', 'timed_out'];

/** Message a query left running by a stopped server gets on the next start. */
export const ORPHANED_QUERY_MESSAGE = 'The server process running this query stopped, so the query was stopped. Run it again.';

/** A queued query that waited in the job queue past its time limit (the queue lost it, or no worker came). */
export const QUEUE_EXPIRED_MESSAGE = 'The query waited in the job queue longer than its time limit, so it was stopped. Run it again.';

const num = (v: string | number | null): number | null => (v === null || v === undefined ? null : Number(v));

function parseJson(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

/** Superset's `Query.to_dict()`. */
export function queryToDict(q: QueryRecord): QueryDict {
  const extra = parseJson(q.extra_json);
  const name = [q.user_first_name, q.user_last_name].filter(Boolean).join(' ');
  return {
    changed_on: pythonIsoformat(q.changed_on),
    dbId: q.database_id,
    db: q.database_name,
    endDttm: num(q.end_time),
    errorMessage: q.error_message,
    executedSql: q.executed_sql,
    id: q.client_id,
    queryId: q.id,
    limit: q.limit,
    limitingFactor: q.limiting_factor,
    progress: q.progress,
    rows: num(q.rows),
    catalog: q.catalog,
    schema: q.schema,
    ctas: q.select_as_cta,
    ctas_method: q.ctas_method,
    serverId: q.id,
    sql: q.sql,
    sqlEditorId: q.sql_editor_id,
    startDttm: num(q.start_time),
    state: q.status.toLowerCase(),
    tab: q.tab_name,
    tempSchema: q.tmp_schema_name,
    tempTable: q.tmp_table_name,
    userId: q.user_id,
    user: name || q.user_username,
    resultsKey: q.results_key,
    trackingUrl: q.tracking_url,
    extra,
    ...(Array.isArray(extra.errors) ? { errors: extra.errors } : {}),
  };
}

/** Superset's `QueryRestApi` item (`show_columns`). */
export function queryToItem(q: QueryRecord) {
  return {
    id: q.id,
    client_id: q.client_id,
    changed_on: pythonIsoformat(q.changed_on),
    database: { id: q.database_id, database_name: q.database_name },
    catalog: q.catalog,
    schema: q.schema,
    sql: q.sql,
    select_sql: q.select_sql,
    executed_sql: q.executed_sql,
    limit: q.limit,
    limiting_factor: q.limiting_factor,
    progress: q.progress,
    rows: num(q.rows),
    status: q.status,
    error_message: q.error_message,
    results_key: q.results_key,
    select_as_cta: q.select_as_cta,
    select_as_cta_used: q.select_as_cta_used,
    ctas_method: q.ctas_method,
    sql_editor_id: q.sql_editor_id,
    tab_name: q.tab_name,
    tmp_schema_name: q.tmp_schema_name,
    tmp_table_name: q.tmp_table_name,
    tracking_url: q.tracking_url,
    start_time: num(q.start_time),
    start_running_time: num(q.start_running_time),
    end_time: num(q.end_time),
    end_result_backend_time: num(q.end_result_backend_time),
    user: q.user_id ? { id: q.user_id, first_name: q.user_first_name, last_name: q.user_last_name, username: q.user_username } : null,
    sql_tables: [],
  };
}

const LIST_COLUMNS = {
  id: 'query.id',
  changed_on: 'query.changed_on',
  database: 'query.database_id',
  database_id: 'query.database_id',
  status: 'query.status',
  user: 'query.user_id',
  user_id: 'query.user_id',
  start_time: 'query.start_time',
  end_time: 'query.end_time',
  sql: 'query.sql',
  tab_name: 'query.tab_name',
  schema: 'query.schema',
  rows: 'query.rows',
  client_id: 'query.client_id',
  sql_editor_id: 'query.sql_editor_id',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const QUERY_ORDER_COLUMNS = Object.keys(LIST_COLUMNS);

/** SQL Lab queries and their lifecycle (`query`). */
export class QueryRepository {
  constructor(private readonly db: MetadataDb) {}

  /** `distinct/status` among one user's queries (`userId` null: everyone's). */
  distinct(column: 'status', userId: number | null, page: { filter: string; page: number; pageSize: number }) {
    let base = this.db.selectFrom('query');
    if (userId !== null) base = base.where('query.user_id', '=', userId);
    return distinctValues(base, `query.${column}`, page);
  }

  private base() {
    return this.db
      .selectFrom('query')
      .leftJoin('dbs', 'dbs.id', 'query.database_id')
      .leftJoin('ab_user as u', 'u.id', 'query.user_id')
      .selectAll('query')
      .select(['dbs.database_name', 'u.first_name as user_first_name', 'u.last_name as user_last_name', 'u.username as user_username']);
  }

  async insert(values: QueryInsert): Promise<QueryRecord> {
    const { id } = await this.db.insertInto('query').values(values).returning('id').executeTakeFirstOrThrow();
    return (await this.getById(id))!;
  }

  getById(id: number): Promise<QueryRecord | undefined> {
    return this.base().where('query.id', '=', id).executeTakeFirst() as Promise<QueryRecord | undefined>;
  }

  getByClientId(clientId: string): Promise<QueryRecord | undefined> {
    return this.base().where('query.client_id', '=', clientId).executeTakeFirst() as Promise<QueryRecord | undefined>;
  }

  getByResultsKey(key: string): Promise<QueryRecord | undefined> {
    return this.base().where('query.results_key', '=', key).executeTakeFirst() as Promise<QueryRecord | undefined>;
  }

  /** Updates a query (and its changed_on); with `unlessFinished`, a finished query is left alone. Returns whether a row changed. */
  async update(id: number, patch: QueryPatch, opts: { unlessFinished?: boolean } = {}): Promise<boolean> {
    let q = this.db.updateTable('query').set({ ...patch, changed_on: new Date() }).where('id', '=', id);
    if (opts.unlessFinished) q = q.where('status', 'not in', FINISHED_STATES);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  delete(id: number) {
    return this.db.deleteFrom('query').where('id', '=', id).execute();
  }

  /** History list; `userId` null means every user's queries. */
  list(query: ListQuery, userId: number | null) {
    let base = this.base();
    if (userId !== null) base = base.where('query.user_id', '=', userId);
    return runListQuery(base, query, {
      columns: LIST_COLUMNS,
      idColumn: 'query.id',
      defaultOrder: ['changed_on', 'desc'],
      custom: {
        query_all_text: (_eb, value) => sql<boolean>`(${sql.ref('query.sql')} ilike ${`%${String(value)}%`} or ${sql.ref('query.executed_sql')} ilike ${`%${String(value)}%`})`,
      },
    }) as Promise<{ count: number; rows: QueryRecord[] }>;
  }

  /** The user's queries changed at or after `since`. */
  updatedSince(userId: number, since: Date): Promise<QueryRecord[]> {
    return this.base().where('query.user_id', '=', userId).where('query.changed_on', '>=', since).orderBy('query.changed_on').execute() as Promise<QueryRecord[]>;
  }

  /** The user's queries of the given editor tabs (SQL Lab bootstrap). */
  forEditors(userId: number, editorIds: string[]): Promise<QueryRecord[]> {
    if (!editorIds.length) return Promise.resolve([]);
    return this.base().where('query.user_id', '=', userId).where('query.sql_editor_id', 'in', editorIds).execute() as Promise<QueryRecord[]>;
  }

  async moveToEditor(clientId: string, userId: number, editorId: string): Promise<void> {
    await this.db.updateTable('query').set({ sql_editor_id: editorId, changed_on: new Date() }).where('client_id', '=', clientId).where('user_id', '=', userId).execute();
  }

  async deleteForUser(clientId: string, userId: number): Promise<void> {
    await this.db.deleteFrom('query').where('client_id', '=', clientId).where('user_id', '=', userId).execute();
  }
}

/** States of a query some process is still working on. */
export const UNFINISHED_STATES = ['pending', 'running', 'started', 'scheduled', 'fetching'];

/** `query_runner`: a live server process (run) executing SQL Lab queries, with its heartbeat. */
export interface QueryRunnerTable {
  id: string;
  instance_name: string;
  started_at: ColumnType<Date, RawBuilder<Date> | undefined, never>;
  heartbeat_at: ColumnType<Date, RawBuilder<Date> | undefined, RawBuilder<Date>>;
}

/** The run a query was started by (`extra_json.runner`), or null for a query from before runs were recorded. */
export function runnerOf(extraJson: string | null): string | null {
  const runner = parseJson(extraJson).runner;
  return typeof runner === 'string' ? runner : null;
}

/** Whose unfinished queries an orphan sweep may fail. */
export interface OrphanSweep {
  /**
   * This process's instance name. Runs of other instances whose heartbeat is fresh are alive and
   * their queries are left alone; runs of this same instance are this process's previous lives,
   * dead since it started. Without it every unfinished query is orphaned (one process only, as on
   * the embedded metadata store).
   */
  instanceName?: string;
  /** This process's own run: never orphaned. */
  runnerId?: string;
  /** A heartbeat older than this means the run is dead. */
  staleAfterMs?: number;
  /**
   * Queries waiting in the job queue (pending, `queued` in extra_json) belong to no process until a
   * worker starts them: they are left alone for this long after they were submitted, then failed.
   */
  queuedMaxMs?: number;
  message?: string;
  /** Told the ids of the queries the sweep failed (their users' clients may be waiting for an event). */
  onFailed?: (ids: number[]) => Promise<void>;
}

/**
 * Marks queries left pending or running by server processes that are gone as failed, with the
 * restart message. Call on start (before serving) and, with several processes on one metadata
 * store, at every heartbeat. Returns how many were marked.
 *
 * @example failOrphanedQueries(db, { instanceName: 'web-1:8088:/data', runnerId, staleAfterMs: 30_000 })
 */
export async function failOrphanedQueries(db: MetadataDb, sweep: OrphanSweep = {}): Promise<number> {
  const message = sweep.message ?? ORPHANED_QUERY_MESSAGE;
  if (sweep.instanceName !== undefined) {
    const runners = db.withTables<{ query_runner: QueryRunnerTable }>();
    const staleSeconds = (sweep.staleAfterMs ?? 30_000) / 1000;
    // The metadata store's clock decides, so clocks of different hosts need not agree.
    const fresh = sql<boolean>`heartbeat_at >= now() - make_interval(secs => ${staleSeconds}::double precision)`;
    const alive = new Set((await runners.selectFrom('query_runner').select('id').where(fresh).where('instance_name', '<>', sweep.instanceName).execute()).map((r) => r.id));
    if (sweep.runnerId) alive.add(sweep.runnerId);
    let dead = runners.deleteFrom('query_runner').where((eb) => eb.or([eb.not(fresh), eb('instance_name', '=', sweep.instanceName!)]));
    if (sweep.runnerId) dead = dead.where('id', '<>', sweep.runnerId);
    await dead.execute();
    const unfinished = await db.selectFrom('query').select(['id', 'status', 'start_time', 'extra_json']).where('status', 'in', UNFINISHED_STATES).execute();
    const queuedSince = Date.now() - (sweep.queuedMaxMs ?? Infinity);
    const waiting = (q: (typeof unfinished)[number]) => q.status === 'pending' && parseJson(q.extra_json).queued === true;
    const expired = unfinished.filter((q) => waiting(q) && Number(q.start_time ?? 0) < queuedSince).map((q) => q.id);
    const failed = expired.length ? await failQueries(db, expired, QUEUE_EXPIRED_MESSAGE) : [];
    const ids = unfinished.filter((q) => !waiting(q) && !alive.has(runnerOf(q.extra_json) ?? '')).map((q) => q.id);
    if (ids.length) failed.push(...(await failQueries(db, ids, message)));
    if (failed.length) await sweep.onFailed?.(failed);
    return failed.length;
  }
  const failed = await failQueries(db, null, message);
  if (failed.length) await sweep.onFailed?.(failed);
  return failed.length;
}

/** Fails unfinished queries (these ids, or all) with a message; returns the ids it failed. */
async function failQueries(db: MetadataDb, ids: number[] | null, message: string): Promise<number[]> {
  const now = Date.now();
  let update = db
    .updateTable('query')
    .set({
      status: 'failed',
      error_message: message,
      end_time: now,
      changed_on: new Date(now),
      extra_json: JSON.stringify({ errors: [{ message, error_type: 'GENERIC_BACKEND_ERROR', level: 'error', extra: { issue_codes: [] } }] }),
    })
    .where('status', 'in', UNFINISHED_STATES);
  if (ids) update = update.where('id', 'in', ids);
  return (await update.returning('id').execute()).map((row) => row.id);
}
