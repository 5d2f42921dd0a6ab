import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { createResultsBackend, PageBufferPool, QueryPool, readRows, type ResultsBackend, type ResultsBackendOptions, type RunResult, type RunTask } from '@meridian/query-worker';
import type { Config } from '../config';

/** Which server process runs a query: its instance (stable across restarts) and this run of it. */
export interface RunnerIdentity {
  /** A fresh id per process start, recorded in each query's `extra_json.runner`. */
  id: string;
  /** INSTANCE_NAME, else `<host>:<port>:<data dir>`: the same after a restart of the same process. */
  instanceName: string;
}

/**
 * The process's one query pool and the results backend it writes to, both created on first use
 * (so services that never run SQL start no threads) and closed with the app.
 */
export class QueryRuntime {
  private poolInstance: QueryPool | null = null;
  private backendInstance: ResultsBackend | null = null;
  readonly resultsOptions: ResultsBackendOptions;
  readonly runner: RunnerIdentity;
  /** Buffers the web thread reads result pages into, reused across requests. */
  readonly pageBuffers = new PageBufferPool();

  constructor(private readonly config: Pick<Config, 'dataDir' | 'redisUrl' | 'resultsMaxBytes' | 'resultsTtlSeconds' | 'workerPoolSize' | 'workerQueueSize' | 'port'>, opts: { ttlSeconds?: number } = {}) {
    this.runner = { id: randomUUID(), instanceName: process.env.INSTANCE_NAME || `${hostname()}:${config.port}:${config.dataDir === ':memory:' ? `memory-${process.pid}` : resolve(config.dataDir)}` };
    const dataDir = config.dataDir === ':memory:' ? join(process.env.TMPDIR ?? '/tmp', `meridian-results-${process.pid}`) : config.dataDir;
    this.resultsOptions = {
      redisUrl: config.redisUrl ?? null,
      dir: join(dataDir, 'results'),
      maxBytes: config.resultsMaxBytes,
      ttlSeconds: opts.ttlSeconds ?? config.resultsTtlSeconds,
    };
  }

  get pool(): QueryPool {
    this.poolInstance ??= new QueryPool({ results: this.resultsOptions, maxThreads: Math.max(1, this.config.workerPoolSize), maxQueue: this.config.workerQueueSize ?? undefined });
    return this.poolInstance;
  }

  get results(): ResultsBackend {
    this.backendInstance ??= createResultsBackend(this.resultsOptions);
    return this.backendInstance;
  }

  /**
   * Runs SQL whose rows are read once (chart data, alert conditions, type probes) and returns them
   * as JSON array text with the result: inline when small, else read from the results backend,
   * whose copy is then deleted. Aborting `signal` stops the query on the database.
   */
  async runAndRead(task: Omit<RunTask, 'kind' | 'queryId'>, signal?: AbortSignal): Promise<{ result: RunResult; rowsJson: string }> {
    const queryId = randomBytes(8).toString('base64url').slice(0, 11);
    signal?.throwIfAborted();
    const stop = () => void this.pool.stop(queryId);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const result = await this.pool.run({ ...task, queryId });
      if (!result.ok) return { result, rowsJson: '[]' };
      if (result.rowsJson !== undefined) return { result, rowsJson: result.rowsJson };
      const slice = await readRows(this.results, result.resultsKey, 0, null);
      await this.results.delete(result.resultsKey).catch(() => undefined);
      return { result, rowsJson: slice?.json ?? '[]' };
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  /** Stops running queries, the threads and the results backend connection. */
  async close(): Promise<void> {
    const pool = this.poolInstance;
    const backend = this.backendInstance;
    this.poolInstance = null;
    this.backendInstance = null;
    await Promise.all([pool?.close(), backend?.close()]);
  }
}
