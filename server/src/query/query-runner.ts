import { sql } from 'kysely';
import type { Services } from '../services';
import type { MetadataDb } from '../db/database';
import type { Logger } from '../logger';
import type { RunnerIdentity } from '../results/query-runtime';
import { failOrphanedQueries, type QueryRunnerTable } from './query.repository';

/** How often a process tells the metadata store it is alive. */
export const RUNNER_HEARTBEAT_MS = 10_000;

/** A run whose heartbeat is older than three intervals is dead: its unfinished queries are failed. */
export const RUNNER_STALE_AFTER_MS = 3 * RUNNER_HEARTBEAT_MS;

/**
 * The heartbeat of this process's run in `query_runner`, for several web processes on one
 * PostgreSQL metadata store: each beat refreshes the run's row and fails the unfinished queries of
 * runs that stopped beating (or of this instance's previous lives). Live processes' queries are
 * left running.
 *
 * @example
 * const heartbeat = new QueryRunnerHeartbeat({ db, runner: services.queryRuntime.runner, logger });
 * await heartbeat.start(); // before serving
 * // ... on shutdown, after the app closed:
 * await heartbeat.stop();
 */
export class QueryRunnerHeartbeat {
  /**
   * The heartbeat a server process keeps (web or worker): every RUNNER_HEARTBEAT_SECONDS, queued queries failed
   * past the async time limit, and the users of the queries its sweep fails told by an async event.
   */
  static forProcess(services: Pick<Services, 'config' | 'db' | 'logger' | 'queryRuntime' | 'sqllab'>): QueryRunnerHeartbeat {
    const { config, db, logger } = services;
    const intervalMs = config.jobs.heartbeatSeconds * 1000;
    return new QueryRunnerHeartbeat({
      db,
      logger,
      runner: services.queryRuntime.runner,
      intervalMs,
      staleAfterMs: 3 * intervalMs,
      queuedMaxMs: config.sqllabAsyncTimeLimitSeconds * 1000,
      onFailed: (ids) => services.sqllab.announceFailed(ids),
    });
  }

  private timer: ReturnType<typeof setInterval> | null = null;
  private beating: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: { db: MetadataDb; runner: RunnerIdentity; logger: Logger; intervalMs?: number; staleAfterMs?: number; queuedMaxMs?: number; onFailed?: (ids: number[]) => Promise<void> }) {}

  /** Registers this run, sweeps orphans once, then beats every interval. Returns how many queries the first sweep failed. */
  async start(): Promise<number> {
    const failed = await this.beat();
    this.timer ??= setInterval(() => {
      this.beating = this.beat().catch((err: unknown) => this.deps.logger.warn({ err }, 'query runner heartbeat failed'));
    }, this.deps.intervalMs ?? RUNNER_HEARTBEAT_MS);
    this.timer.unref();
    return failed;
  }

  /** One beat: refresh this run's row, then fail the queries of dead runs. Returns how many were failed. */
  async beat(): Promise<number> {
    const { db, runner, logger } = this.deps;
    await db
      .withTables<{ query_runner: QueryRunnerTable }>()
      .insertInto('query_runner')
      .values({ id: runner.id, instance_name: runner.instanceName })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: sql<Date>`now()` }))
      .execute();
    const failed = await failOrphanedQueries(db, { instanceName: runner.instanceName, runnerId: runner.id, staleAfterMs: this.deps.staleAfterMs ?? RUNNER_STALE_AFTER_MS, queuedMaxMs: this.deps.queuedMaxMs, onFailed: this.deps.onFailed });
    if (failed) logger.warn({ failed }, 'queries whose server process is gone were marked failed');
    return failed;
  }

  /** Graceful stop (after the app closed and stopped its queries): no more beats, and the run is removed. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    await this.deps.db.withTables<{ query_runner: QueryRunnerTable }>().deleteFrom('query_runner').where('id', '=', this.deps.runner.id).execute();
  }
}
