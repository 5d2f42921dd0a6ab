import type { ListQuery, QueryDict } from '@meridian/contracts';
import type { DatabaseService } from '../database/database.service';
import { NotFound } from '../errors/domain-errors';
import type { QueryRuntime } from '../results/query-runtime';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { SqlLabService } from '../sqllab/sqllab.service';
import type { MeridianJobQueue } from '../jobs/jobs';
import { FINISHED_STATES, queryToDict, queryToItem, type QueryRepository } from './query.repository';

/** Query history, polling for changes, and stopping a running query on its database. */
export class QueryService {
  constructor(
    private readonly deps: { security: SecurityService; queries: QueryRepository; databases: DatabaseService; runtime: QueryRuntime; sqllab: SqlLabService; jobs: Pick<MeridianJobQueue, 'broadcastStop' | 'distributed'> },
  ) {}

  /** `GET /api/v1/query/`: the user's own queries unless all_query_access. */
  async list(actor: Actor | null, query: ListQuery) {
    this.deps.security.require(actor, 'can_read', 'Query');
    const { count, rows } = await this.deps.queries.list(query, this.deps.sqllab.seesAllQueries(actor) ? null : actor.userId);
    return { count, ids: rows.map((r) => r.id), result: rows.map(queryToItem) };
  }

  /** `distinct/status` among the queries the caller sees. */
  distinct(actor: Actor | null, column: 'status', page: { filter: string; page: number; pageSize: number }) {
    this.deps.security.require(actor, 'can_read', 'Query');
    return this.deps.queries.distinct(column, this.deps.sqllab.seesAllQueries(actor) ? null : actor.userId, page);
  }

  async get(actor: Actor | null, id: number) {
    this.deps.security.require(actor, 'can_read', 'Query');
    const query = await this.deps.queries.getById(id);
    if (!query || (query.user_id !== actor.userId && !this.deps.sqllab.seesAllQueries(actor))) throw new NotFound();
    return queryToItem(query);
  }

  /** `GET /api/v1/query/updated_since`: only the user's queries changed after `lastUpdatedMs`. */
  async updatedSince(actor: Actor | null, lastUpdatedMs: number): Promise<QueryDict[]> {
    this.deps.security.require(actor, 'can_read', 'Query');
    const rows = await this.deps.queries.updatedSince(actor.userId, new Date(Math.floor(lastUpdatedMs)));
    return rows.map(queryToDict);
  }

  /**
   * `POST /api/v1/query/stop`: marks the query stopped and cancels it ON THE DATABASE (through the
   * pool; when another process runs it, that process is told, and the query is also cancelled here by
   * its stored cancel id). Finished queries are left alone.
   */
  async stop(actor: Actor | null, clientId: string): Promise<void> {
    this.deps.security.require(actor, 'can_read', 'Query');
    const query = await this.deps.queries.getByClientId(clientId);
    if (!query || (query.user_id !== actor.userId && !this.deps.sqllab.seesAllQueries(actor))) throw new NotFound(`Query with client_id ${clientId} not found`);
    if (FINISHED_STATES.includes(query.status)) return;
    await this.deps.queries.update(query.id, { status: 'stopped', end_time: performance.timeOrigin + performance.now(), error_message: null }, { unlessFinished: true });
    const { pool } = this.deps.runtime;
    if (await pool.stop(clientId)) return;
    if (this.deps.jobs.distributed) await this.deps.jobs.broadcastStop(clientId).catch(() => undefined);
    const cancelId = (JSON.parse(query.extra_json || '{}') as { cancel_query?: string }).cancel_query;
    if (cancelId) {
      const db = await this.deps.databases.getAccessible(actor, query.database_id).catch(() => null);
      if (db) await pool.cancel({ ...this.deps.databases.target(db, query.catalog, query.schema), cancelId });
    }
  }
}
