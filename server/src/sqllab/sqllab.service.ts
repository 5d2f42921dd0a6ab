import { randomBytes, randomUUID } from 'node:crypto';
import type { AsyncJobMetadata, EstimatePayload, ExecutePayload, FormatSqlPayload, QueryDict, ResultsQuery } from '@meridian/contracts';
import { hasPermission, isAdmin } from '@meridian/contracts/rules/permissions';
import { getEngineSpec, QueueFullError, openRows, supersetError, taskFailure, type QueryEvent, type RunResult, type RunTask, type SupersetError, type TaskFailure } from '@meridian/query-worker';
import type { SqlLanguage } from 'sql-formatter';
import type { Config } from '../config';
import type { DatabaseRecord } from '../database/database.repository';
import { allowsCostEstimate, parseExtra, type DatabaseService } from '../database/database.service';
import { Invalid, StructuredError } from '../errors/domain-errors';
import type { Logger } from '../logger';
import { queryToDict, type QueryRecord, type QueryRepository } from '../query/query.repository';
import { jsonWithRows, type JsonStream } from '../results/raw-json';
import type { QueryRuntime } from '../results/query-runtime';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import { parseTemplateParams, renderSqlTemplate } from '../templates/sql-template';
import { ExpiringMap } from '../common/expiring-map';
import type { JobDelivery } from '../jobs/job-queue';
import type { MeridianJobQueue } from '../jobs/jobs';
import { hasSqlValidator, noValidatorMessage, validateSqlSyntax, type SqlValidationAnnotation } from '@meridian/contracts/rules/sql-validation';

/** What execute answers: the HTTP status and the JSON body (text, or a stream with the rows as stored). */
export interface JsonOutcome {
  status: number;
  json: string | JsonStream;
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-';

/** A client-style query id (spec 01 §9: 11 characters). */
export function newClientId(): string {
  return Array.from(randomBytes(11), (b) => ID_ALPHABET[b % 64]).join('');
}

const now = () => performance.timeOrigin + performance.now();

function backendError(message: string, errorType: string, status: number): StructuredError {
  return new StructuredError(status, [{ message, error_type: errorType, level: 'error', extra: { issue_codes: [] } }]);
}

const FORMATTER_DIALECTS: Record<string, SqlLanguage> = { postgresql: 'postgresql', mysql: 'mysql', mariadb: 'mariadb', duckdb: 'duckdb', sqlite: 'sqlite' };

/** An async SQL Lab query in the job queue: its `query` record and what to run. */
export interface SqlLabJob {
  queryId: number;
  task: Omit<RunTask, 'kind'>;
  /** Nothing it runs can write (no DML allowed, no CTAS): safe to run again when it never started. */
  readOnly: boolean;
}

/** A queued query whose process stopped after starting it: whether it ran on the database is unknown, so it is not run again. */
export const WORKER_LOST_MESSAGE = 'The worker running this query stopped before it finished, so the query was stopped. Run it again.';

/** How long a successful query's record is kept for the results calls that page through it. */
const FINISHED_QUERY_TTL_MS = 10_000;
const MAX_FINISHED_QUERIES = 1000;

/**
 * SQL Lab: execute (sync and async, spec 01 §4 query lifecycle recorded in `query`), results paging
 * from the results backend, cost estimates and SQL formatting.
 */
export class SqlLabService {
  private readonly finishedByKey = new ExpiringMap<string, QueryRecord>(MAX_FINISHED_QUERIES);

  constructor(
    private readonly deps: {
      config: Config;
      logger: Logger;
      security: SecurityService;
      databases: DatabaseService;
      queries: QueryRepository;
      runtime: QueryRuntime;
      /** Where async queries go: run in this process, or by whichever process takes them from the queue. */
      jobs: Pick<MeridianJobQueue, 'submit' | 'distributed' | 'idle'>;
      /** Async events (GLOBAL_ASYNC_QUERIES): told when an async query finishes. */
      events?: () => { publish(channel: string, event: AsyncJobMetadata): Promise<void> } | null;
    },
  ) {}

  /** Whether the actor sees every user's queries. */
  seesAllQueries(actor: Actor): boolean {
    return isAdmin(actor) || hasPermission(actor, 'all_query_access', 'all_query_access');
  }

  /** `POST /api/v1/sqllab/execute/`. */
  async execute(actor: Actor | null, payload: ExecutePayload): Promise<JsonOutcome> {
    this.deps.security.require(actor, 'can_execute_sql_query', 'SQLLab');
    const { config } = this.deps;
    const db = await this.deps.databases.getAccessible(actor, payload.database_id);
    if (!db.expose_in_sqllab) throw backendError('This database is not exposed in SQL Lab.', 'DATABASE_SECURITY_ACCESS_ERROR', 400);

    const clientId = payload.client_id || newClientId();
    const existing = await this.deps.queries.getByClientId(clientId);
    if (existing) {
      if (existing.user_id !== actor.userId) throw new Invalid({ client_id: ['This client id belongs to another query.'] });
      if (existing.status === 'running' || existing.status === 'pending') return { status: 202, json: JSON.stringify({ query: queryToDict(existing) }) };
      await this.deps.queries.delete(existing.id);
    }

    const params = parseTemplateParams(payload.templateParams);
    const rendered = config.featureFlags.ENABLE_TEMPLATE_PROCESSING
      ? renderSqlTemplate(payload.sql, params, { username: actor.username, userId: actor.userId, urlParams: (params.url_params as Record<string, unknown>) ?? {} })
      : payload.sql;

    const ctas = payload.select_as_cta ? this.ctasPlan(db, actor, payload) : null;
    const limit = ctas ? null : Math.min(payload.queryLimit || config.sqlMaxRow, config.sqlMaxRow);
    const runAsync = Boolean(payload.runAsync && db.allow_run_async);
    const start = now();
    const query = await this.deps.queries.insert({
      client_id: clientId,
      database_id: db.id,
      user_id: actor.userId,
      status: runAsync ? 'pending' : 'running',
      tab_name: payload.tab ?? null,
      sql_editor_id: payload.sql_editor_id ?? null,
      catalog: payload.catalog ?? null,
      schema: payload.schema ?? null,
      sql: payload.sql,
      limit,
      select_as_cta: Boolean(ctas),
      ctas_method: ctas?.method ?? null,
      tmp_table_name: ctas?.tableName ?? null,
      tmp_schema_name: ctas?.schema ?? null,
      progress: 0,
      start_time: start,
      start_running_time: runAsync ? null : start,
      // The run executing it: other processes leave it alone while this one's heartbeat is fresh. A
      // query in the job queue has no run until a process takes it.
      extra_json: JSON.stringify(runAsync && this.deps.jobs.distributed ? { queued: true } : { runner: this.deps.runtime.runner.id }),
    });
    const task: Omit<RunTask, 'kind'> = {
      ...this.deps.databases.target(db, payload.catalog, payload.schema),
      queryId: clientId,
      sql: rendered,
      limit,
      resultsKey: randomUUID(),
      timeoutMs: (runAsync ? config.sqllabAsyncTimeLimitSeconds : config.sqllabTimeoutSeconds) * 1000,
      allowDml: db.allow_dml,
      ctas,
    };

    if (runAsync) {
      try {
        await this.deps.jobs.submit('sqllab', { queryId: query.id, task, readOnly: !ctas && !db.allow_dml });
      } catch (error) {
        const failure = taskFailure(supersetError('ASYNC_WORKERS_ERROR', `The query could not be queued: ${(error as Error).message}`, null));
        await this.recordFailure(query.id, failure, {});
        throw new StructuredError(503, failure.errors.map((e) => ({ ...e })));
      }
      return { status: 202, json: JSON.stringify({ query: queryToDict(query) }) };
    }

    const { result, record } = await this.runAndRecord(query, task);
    if (result.ok) return { status: 200, json: await this.resultsPayload(record, 0, config.displayMaxRow) };
    if (result.status === 'stopped') {
      return { status: 200, json: JSON.stringify({ status: 'stopped', data: [], columns: [], selected_columns: [], expanded_columns: [], query: queryToDict(record), query_id: record.id }) };
    }
    throw new StructuredError(result.status === 'timed_out' ? 408 : result.errorType === 'ASYNC_WORKERS_ERROR' ? 503 : 500, result.errors.map((e) => ({ ...e })));
  }

  /**
   * Runs an async query taken from the job queue (in this process or another). A query stopped or
   * failed meanwhile is left alone. Handed over again because the process that took it stopped:
   * run when it never started and cannot write, else failed with a clear error.
   */
  async runQueued(job: SqlLabJob, delivery: JobDelivery): Promise<void> {
    const { queries, runtime } = this.deps;
    const query = await queries.getById(job.queryId);
    if (!query || (query.status !== 'pending' && query.status !== 'running')) return;
    if (delivery.redelivered && (query.status === 'running' || !job.readOnly)) {
      const failure = taskFailure(supersetError('GENERIC_BACKEND_ERROR', WORKER_LOST_MESSAGE, null));
      await this.recordFailure(query.id, failure, { runner: runtime.runner.id });
      // The statement may outlive the process that sent it (a database notices a dead client late): cancel it there.
      const cancelId = (JSON.parse(query.extra_json || '{}') as { cancel_query?: string }).cancel_query;
      if (cancelId) await runtime.pool.cancel({ uri: job.task.uri, catalog: job.task.catalog, schema: job.task.schema, cancelId }).catch(() => undefined);
      await this.announce((await queries.getById(query.id))!, failure);
      return;
    }
    // This run takes it: still pending (and so still retried if this process stops) until the database starts it.
    if (this.deps.jobs.distributed && !(await queries.update(query.id, { extra_json: JSON.stringify({ queued: true, runner: runtime.runner.id }) }, { unlessFinished: true }))) return;
    const { result, record } = await this.runAndRecord(query, job.task);
    await this.announce(record, result);
  }

  /** Publishes the failure of queries another process failed (a sweep of dead processes' queries), for clients waiting on their events. */
  async announceFailed(ids: number[]): Promise<void> {
    for (const id of ids) {
      const record = await this.deps.queries.getById(id);
      if (record?.status !== 'failed') continue;
      await this.announce(record, taskFailure(supersetError('GENERIC_BACKEND_ERROR', record.error_message ?? 'The query failed.', null)));
    }
  }

  /** Publishes the end of an async query as an async event when GLOBAL_ASYNC_QUERIES is on. */
  private async announce(record: QueryRecord, result: RunResult): Promise<void> {
    const events = this.deps.events?.();
    if (!events || !this.deps.config.featureFlags.GLOBAL_ASYNC_QUERIES || record.user_id === null) return;
    const channel = `user-${record.user_id}`;
    await events.publish(channel, {
      channel_id: channel,
      job_id: record.client_id,
      user_id: record.user_id,
      status: result.ok ? 'done' : 'error',
      errors: result.ok ? [] : result.errors,
      result_url: result.ok && record.results_key ? `/api/v1/sqllab/results/?q=(key:'${record.results_key}')` : null,
    });
  }

  private ctasPlan(db: DatabaseRecord, actor: Actor, payload: ExecutePayload): NonNullable<RunTask['ctas']> {
    const method = payload.ctas_method ?? 'TABLE';
    if (method === 'TABLE' && !db.allow_ctas) throw backendError('This database does not allow CREATE TABLE AS SELECT.', 'INVALID_CTAS_QUERY_ERROR', 400);
    if (method === 'VIEW' && !db.allow_cvas) throw backendError('This database does not allow CREATE VIEW AS SELECT.', 'INVALID_CVAS_QUERY_ERROR', 400);
    const stamp = new Date().toISOString().replace(/[-:T]/g, '_').slice(0, 19);
    return {
      method,
      tableName: payload.tmp_table_name || `tmp_${actor.userId}_table_${stamp}`,
      schema: db.force_ctas_schema || payload.tmp_schema_name || payload.schema || null,
    };
  }

  /** Runs a query in the pool and records each step of its lifecycle; a stopped query is never overwritten. */
  private async runAndRecord(query: QueryRecord, task: Omit<RunTask, 'kind'>): Promise<{ result: RunResult; record: QueryRecord }> {
    const { queries, runtime } = this.deps;
    const extra: Record<string, unknown> = { runner: runtime.runner.id };
    let running = query.status === 'running';
    let progress = 0;
    let updates = Promise.resolve();
    const onEvent = (event: QueryEvent) => {
      const patch: Parameters<QueryRepository['update']>[1] = {};
      if (!running) {
        running = true;
        Object.assign(patch, { status: 'running', start_running_time: now() });
      }
      if (event.type === 'cancelId') {
        extra.cancel_query = event.cancelId;
        patch.extra_json = JSON.stringify(extra);
      } else {
        const pct = Math.floor((100 * event.statement) / Math.max(1, event.statementCount));
        if (pct > progress) patch.progress = progress = pct;
      }
      if (Object.keys(patch).length) updates = updates.then(() => queries.update(query.id, patch, { unlessFinished: true }).then(() => undefined)).catch(() => undefined);
    };
    let result: RunResult;
    try {
      result = await runtime.pool.run(task, { onEvent });
    } catch (error) {
      if (error instanceof QueueFullError) {
        result = { ok: false, status: 'failed', errorType: 'ASYNC_WORKERS_ERROR', message: error.message, errors: [error.error] };
      } else {
        // The thread running it died (the pool starts another): the query failed, it must not stay "running".
        const message = `The query's worker stopped while running it: ${(error as Error).message}`;
        result = { ok: false, status: 'failed', errorType: 'GENERIC_BACKEND_ERROR', message, errors: [{ message, error_type: 'GENERIC_BACKEND_ERROR', level: 'error', extra: { engine_name: null, issue_codes: [] } }] };
      }
    }
    await updates;
    if (result.ok) {
      const selectSql = result.tempTable ? `SELECT * FROM ${result.tempTable}` : null;
      await queries.update(query.id, {
        status: 'success',
        progress: 100,
        rows: result.rowCount,
        results_key: result.resultsKey,
        executed_sql: result.executedSql,
        select_sql: selectSql,
        limit: result.limit,
        limiting_factor: result.limitingFactor,
        select_as_cta_used: Boolean(task.ctas),
        tmp_table_name: task.ctas ? task.ctas.tableName : null,
        tmp_schema_name: task.ctas ? (result.tempSchema ?? task.ctas.schema ?? null) : null,
        start_running_time: result.startedAt,
        end_time: result.endedAt,
        end_result_backend_time: now(),
        error_message: null,
        extra_json: JSON.stringify(extra),
      }, { unlessFinished: true });
    } else {
      await this.recordFailure(query.id, result, extra);
    }
    return { result, record: (await queries.getById(query.id))! };
  }

  private async recordFailure(id: number, failure: TaskFailure, extra: Record<string, unknown>): Promise<void> {
    await this.deps.queries.update(id, {
      status: failure.status,
      error_message: failure.message,
      end_time: now(),
      extra_json: JSON.stringify({ ...extra, errors: failure.errors }),
    }, { unlessFinished: true });
  }

  /** Superset's results payload with `rows` rows from `offset`, the rows spliced in as stored (bytes, never decoded). */
  private async resultsPayload(query: QueryRecord, offset: number, rows: number): Promise<string | JsonStream> {
    const base = { status: 'success', query_id: query.id, query: queryToDict(query) as QueryDict | Record<string, unknown> };
    if (!query.results_key) return JSON.stringify({ ...base, data: [], columns: [], selected_columns: [], expanded_columns: [] });
    const slice = await openRows(this.deps.runtime.results, query.results_key, offset, rows, this.deps.runtime.pageBuffers);
    if (!slice) throw gone();
    const columns = slice.meta.columns;
    return jsonWithRows(
      {
        ...base,
        columns,
        selected_columns: columns,
        expanded_columns: [],
        offset,
        ...(offset + slice.rowCount < slice.meta.rowCount ? { displayLimitReached: true } : {}),
      },
      'data',
      slice,
    );
  }

  /** `GET /api/v1/sqllab/results/?q=(key,rows,offset)`: 410 once the stored result has expired. */
  async results(actor: Actor | null, q: ResultsQuery): Promise<string | JsonStream> {
    this.deps.security.require(actor, 'can_get_results', 'SQLLab');
    const meta = await this.deps.runtime.results.getMeta(q.key);
    if (!meta) throw gone();
    const query = await this.queryByResultsKey(q.key);
    if (!query) throw backendError('The query associated with these results could not be found. You need to re-run the original query.', 'RESULTS_BACKEND_ERROR', 404);
    this.requireQueryAccess(actor, query);
    return this.resultsPayload(query, q.offset ?? 0, q.rows ?? this.deps.config.displayMaxRow);
  }

  /**
   * The query a results key belongs to. A client paging through a result asks once per page, and on
   * the embedded metadata store each lookup costs a few ms of the web thread, so a successful
   * query's record is kept a few seconds: it is final (nothing updates a finished query). Access
   * is still checked on every call.
   */
  private async queryByResultsKey(key: string): Promise<QueryRecord | undefined> {
    const now = Date.now();
    const hit = this.finishedByKey.get(key, now);
    if (hit) return hit;
    const record = await this.deps.queries.getByResultsKey(key);
    if (record?.status === 'success') this.finishedByKey.set(key, record, now + FINISHED_QUERY_TTL_MS);
    return record;
  }

  /** Own queries, or any with all_query_access; the database must be accessible too. */
  requireQueryAccess(actor: Actor, query: QueryRecord): void {
    const own = query.user_id === actor.userId;
    const db = { id: query.database_id, database_name: query.database_name ?? '' };
    if ((!own && !this.seesAllQueries(actor)) || !this.deps.databases.canAccess(actor, db)) {
      throw backendError('You are not authorized to see this query. If you think this is an error, please reach out to your administrator.', 'QUERY_SECURITY_ACCESS_ERROR', 403);
    }
  }

  /** `POST /api/v1/sqllab/estimate/`: one cost row per statement. */
  async estimate(actor: Actor | null, payload: EstimatePayload): Promise<Record<string, unknown>[]> {
    this.deps.security.require(actor, 'can_estimate_query_cost', 'SQLLab');
    const db = await this.deps.databases.getAccessible(actor, payload.database_id);
    // Superset's engine spec refuses with this text (GENERIC_DB_ENGINE_ERROR, 400) when estimates are off.
    if (!allowsCostEstimate(parseExtra(db.extra))) {
      throw new StructuredError(400, [supersetError('GENERIC_DB_ENGINE_ERROR', 'Database does not support cost estimation', getEngineSpec(db.sqlalchemy_uri).engineName)]);
    }
    const params = parseTemplateParams(payload.template_params as string | Record<string, unknown> | null);
    const sql = this.deps.config.featureFlags.ENABLE_TEMPLATE_PROCESSING ? renderSqlTemplate(payload.sql, params, { username: actor.username, userId: actor.userId }) : payload.sql;
    const result = await this.deps.runtime.pool.estimate({ ...this.deps.databases.target(db, payload.catalog, payload.schema), sql, timeoutMs: this.deps.config.sqllabTimeoutSeconds * 1000, allowDml: db.allow_dml });
    if (!result.ok) throw new StructuredError(result.status === 'timed_out' ? 408 : 500, result.errors.map((e: SupersetError) => ({ ...e })));
    return result.cost;
  }

  /**
   * `POST /api/v1/database/{pk}/validate_sql/`: the (templated) SQL parsed in the database's dialect, each
   * syntax error annotated with its place; an engine without a validator is Superset's 422.
   */
  async validateSql(actor: Actor | null, id: number, payload: { sql: string; schema?: string | null; catalog?: string | null; template_params?: string | Record<string, unknown> | null }): Promise<SqlValidationAnnotation[]> {
    this.deps.security.require(actor, 'can_read', 'Database');
    const db = await this.deps.databases.getAccessible(actor, id);
    const spec = getEngineSpec(db.sqlalchemy_uri);
    if (!hasSqlValidator(spec.dialect)) throw new StructuredError(422, [supersetError('GENERIC_DB_ENGINE_ERROR', noValidatorMessage(spec.engineName), spec.engineName)]);
    const params = parseTemplateParams(payload.template_params ?? null);
    const sql = this.deps.config.featureFlags.ENABLE_TEMPLATE_PROCESSING ? renderSqlTemplate(payload.sql, params, { username: actor.username, userId: actor.userId }) : payload.sql;
    return validateSqlSyntax(sql, spec.dialect);
  }

  /** `POST /api/v1/sqllab/format_sql/`: sql-formatter in the database's dialect. */
  async formatSql(actor: Actor | null, payload: FormatSqlPayload): Promise<string> {
    this.deps.security.require(actor, 'can_format_sql', 'SQLLab');
    let engine = payload.engine ?? null;
    if (!engine && payload.database_id) {
      const db = await this.deps.databases.getAccessible(actor, payload.database_id);
      engine = getEngineSpec(db.sqlalchemy_uri).backend;
    }
    const language = FORMATTER_DIALECTS[engine ?? ''] ?? 'sql';
    // Loaded on first use: it is a tenth of a second of every server start otherwise.
    const { format } = await import('sql-formatter');
    const attempt = (lang: SqlLanguage) => format(payload.sql, { language: lang, keywordCase: 'upper' });
    try {
      return attempt(language);
    } catch {
      try {
        return attempt('sql');
      } catch (error) {
        throw new Invalid({ sql: [`The SQL could not be formatted: ${(error as Error).message}`] });
      }
    }
  }

  /** Waits for the async queries this process runs: tests and graceful shutdown. */
  async idle(): Promise<void> {
    await this.deps.jobs.idle();
  }
}

/** Superset's 410 when the results backend no longer has the rows. */
export function gone(): StructuredError {
  return backendError('Data could not be retrieved from the results backend. You need to re-run the original query.', 'RESULTS_BACKEND_ERROR', 410);
}
