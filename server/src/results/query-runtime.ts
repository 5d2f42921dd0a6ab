import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { createResultsBackend, PageBufferPool, QueryPool, type ResultsBackend, type ResultsBackendOptions } from '@meridian/query-worker';
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

  constructor(private readonly config: Pick<Config, 'dataDir' | 'redisUrl' | 'resultsMaxBytes' | 'resultsTtlSeconds' | 'workerPoolSize' | 'port'>, opts: { ttlSeconds?: number } = {}) {
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
    this.poolInstance ??= new QueryPool({ results: this.resultsOptions, maxThreads: Math.max(1, this.config.workerPoolSize) });
    return this.poolInstance;
  }

  get results(): ResultsBackend {
    this.backendInstance ??= createResultsBackend(this.resultsOptions);
    return this.backendInstance;
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
