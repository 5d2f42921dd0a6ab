import os from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { cancelledFailure, supersetError } from './engines/errors.ts';
import { getEngineSpec } from './engines/registry.ts';
import { backendFromUri } from './engines/uri.ts';
import type {
  CancelResult, CancelTask, EstimateResult, EstimateTask, MetadataInput, MetadataResult, QueryEvent, ResultsBackendOptions,
  RunResult, RunTask, SupersetError, Task, TestConnectionResult, TestConnectionTask, UploadMetadataResult, UploadMetadataTask, UploadResult, UploadTask,
} from './types.ts';

/** Message the main thread sends a running task over its port. */
export type ControlMessage = { type: 'cancel' };
/** Messages a task sends back over its port. */
export type WorkerMessage = QueryEvent | { type: 'cancelled'; queryId: string };

/**
 * States of a run's start gate, an Int32 shared between the main thread and the thread that picks
 * the task up. Whoever moves it off `QUEUED` first decides: the thread (`STARTED`, it runs the
 * query), or a stop or timeout while the task still waits in the queue (`STOPPED`/`TIMED_OUT`: the
 * run answers at once and the thread, when it gets the task, returns without touching the database).
 */
export const GATE = { QUEUED: 0, STARTED: 1, STOPPED: 2, TIMED_OUT: 3 } as const;

/** Called by the thread that picks a run up: 'start' when it may run, else how it ended while queued. */
export function claimGate(gate: Int32Array): 'start' | 'stopped' | 'timed_out' {
  const before = Atomics.compareExchange(gate, 0, GATE.QUEUED, GATE.STARTED);
  if (before === GATE.QUEUED || before === GATE.STARTED) return 'start';
  return before === GATE.STOPPED ? 'stopped' : 'timed_out';
}

/** Data every worker thread receives (Piscina `workerData`). */
export interface WorkerConfig {
  results: ResultsBackendOptions;
  /** Added niceness of the thread (worker.ts); the DuckDB thread runs at 0 (see the constructor). */
  nice: number;
}

export interface QueryPoolOptions {
  /** Results backend every worker writes pages to. */
  results: ResultsBackendOptions;
  /** Threads; default `WORKER_POOL_SIZE` or `os.availableParallelism()`. */
  maxThreads?: number;
  /** Tasks waiting for a thread before `QueueFullError`; default `WORKER_QUEUE_SIZE` or 64 x threads. */
  maxQueue?: number;
  /** Worker module; default `worker.ts`/`worker.js` beside this file. */
  filename?: string;
  /** Milliseconds an idle thread lives (default 60 s). */
  idleTimeout?: number;
  /**
   * DuckDB tasks the one DuckDB thread runs at once (its driver is async); default
   * `WORKER_DUCKDB_CONCURRENCY` or the thread count (at least 2). Further ones wait in its queue.
   */
  duckdbConcurrency?: number;
}

function engineNameOf(uri: string): string | null {
  try {
    return getEngineSpec(uri).engineName;
  } catch {
    return null;
  }
}

/** Rejection of a task when the pool's queue is full (Superset ASYNC_WORKERS_ERROR). */
export class QueueFullError extends Error {
  readonly errorType = 'ASYNC_WORKERS_ERROR' as const;
  readonly error: SupersetError;
  constructor() {
    super('The query queue is full: too many queries are running. Try again shortly.');
    this.name = 'QueueFullError';
    this.error = supersetError('ASYNC_WORKERS_ERROR', this.message, null);
  }
}

export interface RunOptions {
  /** Called on the main thread for each event of the running query (cancel id, progress). */
  onEvent?: (event: QueryEvent) => void;
}

interface Running {
  port: MessagePort;
  cancelAcks: (() => void)[];
  stopped: boolean;
  /** Start gate shared with the thread (see `GATE`). */
  gate: Int32Array;
  /** Ends `run` at once, for a run stopped or timed out while still queued. */
  endQueued: (reason: 'stopped' | 'timed_out') => void;
}

/**
 * The Piscina pools every query runs in, off the server's event loop.
 *
 * Tasks for DuckDB (run, metadata, estimate, testConnection, cancel) all go to ONE dedicated
 * thread that runs several of them at once, so the process holds exactly one DuckDB instance per
 * file: DuckDB's instance cache is per thread, and separate read-write instances of one file in
 * one process do not see each other's writes and can corrupt the file. Other engines use the
 * general pool of `maxThreads` threads.
 *
 * @example
 * const pool = new QueryPool({ results: { dir: '.data/results', maxBytes: 1e9, ttlSeconds: 86400 } });
 * const result = await pool.run({ queryId: 'abc', uri: 'postgresql://postgres@127.0.0.1/test', sql: 'SELECT 1', limit: 1000 });
 */
export class QueryPool {
  /** The general pool (every engine but DuckDB). */
  readonly piscina: Piscina;
  /** The one thread every DuckDB task runs on. */
  readonly duckdbPiscina: Piscina;
  private readonly running = new Map<string, Running>();

  constructor(options: QueryPoolOptions) {
    const here = new URL(import.meta.url);
    const isTs = here.pathname.endsWith('.ts');
    const filename = options.filename ?? new URL(isTs ? './worker.ts' : './worker.js', here).href;
    const maxThreads = options.maxThreads ?? (Number(process.env.WORKER_POOL_SIZE) || os.availableParallelism());
    // A dashboard asks for all its charts at once, and several people open it: a deep queue (each waiting task is
    // a few hundred bytes, and its timeout counts the wait) keeps them waiting their turn instead of refused.
    const maxQueue = options.maxQueue ?? (Number(process.env.WORKER_QUEUE_SIZE) || maxThreads * 64);
    const duckdbConcurrency = options.duckdbConcurrency ?? (Number(process.env.WORKER_DUCKDB_CONCURRENCY) || Math.max(2, maxThreads));
    const nice = Number(process.env.QUERY_WORKER_NICE ?? 10);
    const common = {
      filename,
      execArgv: filename.endsWith('.ts') ? ['--import', 'tsx'] : [],
      maxQueue,
      idleTimeout: options.idleTimeout ?? 60_000,
    };
    // General threads convert every row of PostgreSQL/MySQL/SQLite results in JS: they run niced so
    // the web thread stays responsive under heavy queries.
    this.piscina = new Piscina({ ...common, workerData: { results: options.results, nice } satisfies WorkerConfig, minThreads: Math.min(1, maxThreads), maxThreads });
    // Never more than one thread, kept alive (minThreads) so its instances live as long as the pool.
    // DuckDB computes in its own native threads (not niced: libuv's pool starts them), so nicing this
    // JS thread protects nothing and only delays each query's completions (measured ~10% on chart data).
    this.duckdbPiscina = new Piscina({ ...common, workerData: { results: options.results, nice: 0 } satisfies WorkerConfig, minThreads: 1, maxThreads: 1, concurrentTasksPerWorker: duckdbConcurrency });
  }

  /** The pool a task runs in: the DuckDB thread for a DuckDB URI, else the general pool. */
  private poolFor(task: Task): Piscina {
    return backendFromUri(task.uri) === 'duckdb' ? this.duckdbPiscina : this.piscina;
  }

  private async submit<R>(task: Task, port?: MessagePort, gate?: Int32Array): Promise<R> {
    try {
      return (await this.poolFor(task).run(port ? { task, port, gate } : { task }, port ? { transferList: [port] } : {})) as R;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/queue is at limit|No task queue available/i.test(message)) throw new QueueFullError();
      throw error;
    }
  }

  /**
   * Runs SQL Lab SQL in a worker; resolves with the summary (rows are in the results backend).
   * Rejects only with `QueueFullError`; database errors, stop and timeout resolve as `{ ok: false }`.
   * The timeout counts from this call, queue wait included: a run still queued when it expires
   * resolves `timed_out` at once and never reaches the database.
   */
  async run(task: Omit<RunTask, 'kind'>, options: RunOptions = {}): Promise<RunResult> {
    if (this.running.has(task.queryId)) throw new Error(`Query ${task.queryId} is already running`);
    const channel = new MessageChannel();
    const gate = new Int32Array(new SharedArrayBuffer(4));
    let endQueued!: (reason: 'stopped' | 'timed_out') => void;
    const endedQueued = new Promise<RunResult>((resolve) => {
      endQueued = (reason) => resolve(cancelledFailure(reason, engineNameOf(task.uri), task.timeoutMs));
    });
    const entry: Running = { port: channel.port1, cancelAcks: [], stopped: false, gate, endQueued };
    this.running.set(task.queryId, entry);
    channel.port1.on('message', (message: WorkerMessage) => {
      if (message.type === 'cancelled') {
        for (const ack of entry.cancelAcks.splice(0)) ack();
      } else options.onEvent?.(message);
    });
    const submittedAt = Date.now();
    const timer = task.timeoutMs && task.timeoutMs > 0
      ? setTimeout(() => {
        if (Atomics.compareExchange(gate, 0, GATE.QUEUED, GATE.TIMED_OUT) === GATE.QUEUED) endQueued('timed_out');
      }, task.timeoutMs)
      : null;
    try {
      return await Promise.race([this.submit<RunResult>({ ...task, kind: 'run', submittedAt }, channel.port2, gate), endedQueued]);
    } finally {
      if (timer) clearTimeout(timer);
      this.running.delete(task.queryId);
      for (const ack of entry.cancelAcks.splice(0)) ack();
      channel.port1.close();
    }
  }

  /**
   * Stops a running or queued query. Running: the worker cancels the statement ON THE DATABASE
   * (engines that cannot cancel in-thread, SQLite, run in a child process the worker kills) and
   * this resolves once it did. Queued: this resolves at once and the query never runs (the task
   * stays in Piscina's queue until a thread takes it and returns without connecting; aborting it
   * with a Piscina signal would end the thread instead if it had just been handed over).
   * The `run` promise resolves with `status: 'stopped'`. Resolves false when no such query runs in
   * this pool (use a `cancel` task with its cancel id instead).
   */
  stop(queryId: string): Promise<boolean> {
    const entry = this.running.get(queryId);
    if (!entry) return Promise.resolve(false);
    entry.stopped = true;
    const before = Atomics.compareExchange(entry.gate, 0, GATE.QUEUED, GATE.STOPPED);
    if (before === GATE.QUEUED) {
      entry.endQueued('stopped');
      return Promise.resolve(true);
    }
    if (before !== GATE.STARTED) return Promise.resolve(true);
    return new Promise((resolve) => {
      entry.cancelAcks.push(() => resolve(true));
      entry.port.postMessage({ type: 'cancel' } satisfies ControlMessage);
    });
  }

  /** Whether a query is queued or running in this pool. */
  isRunning(queryId: string): boolean {
    return this.running.has(queryId);
  }

  /** Schemas, tables, one table's metadata, or catalogs. */
  metadata(task: MetadataInput): Promise<MetadataResult> {
    return this.submit<MetadataResult>({ ...task, kind: 'metadata' });
  }

  /** EXPLAIN-based cost estimate, one row object per statement. */
  estimate(task: Omit<EstimateTask, 'kind'>): Promise<EstimateResult> {
    return this.submit<EstimateResult>({ ...task, kind: 'estimate' });
  }

  /** Loads an uploaded file (on disk) into a table of the task's database. */
  upload(task: Omit<UploadTask, 'kind'>): Promise<UploadResult> {
    return this.submit<UploadResult>({ ...task, kind: 'upload' });
  }

  /** The column names of an uploaded file. */
  uploadMetadata(task: Omit<UploadMetadataTask, 'kind' | 'uri'>): Promise<UploadMetadataResult> {
    return this.submit<UploadMetadataResult>({ ...task, kind: 'uploadMetadata', uri: 'duckdb:///:memory:' });
  }

  testConnection(task: Omit<TestConnectionTask, 'kind'>): Promise<TestConnectionResult> {
    return this.submit<TestConnectionResult>({ ...task, kind: 'testConnection' });
  }

  /** Cancels a statement by engine cancel id (e.g. one stored in query.extra by another process). */
  cancel(task: Omit<CancelTask, 'kind'>): Promise<CancelResult> {
    return this.submit<CancelResult>({ ...task, kind: 'cancel' });
  }

  /** Threads and queued tasks of both pools, and running queries. */
  stats(): { threads: number; queueSize: number; runningQueries: number } {
    const pools = [this.piscina, this.duckdbPiscina];
    return {
      threads: pools.reduce((sum, pool) => sum + pool.threads.length, 0),
      queueSize: pools.reduce((sum, pool) => sum + pool.queueSize, 0),
      runningQueries: this.running.size,
    };
  }

  /**
   * Stops running queries, lets the tasks still in threads (metadata, estimates, the stopped runs
   * winding down) finish, then ends the threads. Ending a thread while a native driver is inside a
   * statement can abort the process, so threads are only destroyed after a grace period.
   */
  async close(graceMs = 10_000): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.stop(id)));
    let timer: NodeJS.Timeout | undefined;
    const pools = [this.piscina, this.duckdbPiscina];
    const graceful = Promise.all(pools.map((pool) => pool.close())).then(() => true);
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
    const closed = await Promise.race([graceful, timedOut]);
    clearTimeout(timer);
    if (!closed) await Promise.all(pools.map((pool) => pool.destroy()));
  }
}
