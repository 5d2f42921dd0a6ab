import { getEngineSpec } from './engines/registry.ts';
import type { EngineConnection, EngineSpec, RowSink } from './engines/engine-spec.ts';
import { cancelledFailure, lineInSubmittedSql, supersetError, taskFailure } from './engines/errors.ts';
import { isPostgresConnection } from './engines/postgres.ts';
import { PageWriter } from './results/page-writer.ts';
import type { ResultsBackend } from './results/results-backend.ts';
import { buildCtas } from './sql/ctas.ts';
import { applyLimit, computeLimitingFactor, getLimitFromSql, isMutating, isSelect, splitStatements } from './sql/statements.ts';
import type { ControlMessage, WorkerMessage } from './pool.ts';

/** The task's side of its control channel: a worker `MessagePort`, or the IPC relay of an isolated run. */
export interface ControlPort {
  on(event: 'message', listener: (message: ControlMessage) => void): unknown;
  postMessage(message: WorkerMessage): void;
  removeAllListeners(event: 'message'): unknown;
}
import type {
  CancelResult, CancelTask, ConnectionTarget, EstimateResult, EstimateTask, MetadataResult, MetadataTask, ResultColumn,
  RunResult, RunTask, TaskFailure, TestConnectionResult, TestConnectionTask,
} from './types.ts';

/** After a timeout or stop, how long the statement gets to end before the task gives up on it. */
const CANCEL_GRACE_MS = 5_000;

/**
 * Milliseconds left of a timeout that started at `submittedAt` (queue wait counts); at least 1, so
 * an expired one fires at once. Null when there is no timeout.
 */
export function remainingTimeoutMs(timeoutMs: number | null | undefined, submittedAt: number | undefined): number | null {
  if (!timeoutMs || timeoutMs <= 0) return null;
  return Math.max(1, timeoutMs - (submittedAt ? Date.now() - submittedAt : 0));
}

/**
 * Lifecycle of one task: connection, cancel requests from the port, the timeout, and the phase
 * (connect/query) errors happen in.
 */
class TaskControl {
  connection: EngineConnection | null = null;
  stopped = false;
  timedOut = false;
  phase: 'connect' | 'query' = 'connect';
  private timer: NodeJS.Timeout | null = null;
  private giveUp: (() => void) | null = null;
  /** Settles when a cancel was requested and the statement did not end within the grace period. */
  readonly abandoned: Promise<'abandoned'>;

  constructor(private readonly port: ControlPort | undefined, private readonly queryId: string, timeoutMs: number | null | undefined, submittedAt?: number) {
    this.abandoned = new Promise((resolve) => {
      this.giveUp = () => resolve('abandoned');
    });
    port?.on('message', (message: ControlMessage) => {
      if (message.type !== 'cancel') return;
      this.stopped = true;
      void this.cancel().finally(() => this.post({ type: 'cancelled', queryId }));
    });
    const delay = remainingTimeoutMs(timeoutMs, submittedAt);
    if (delay != null) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        void this.cancel();
      }, delay);
    }
  }

  get cancelled(): boolean {
    return this.stopped || this.timedOut;
  }

  post(message: WorkerMessage): void {
    this.port?.postMessage(message);
  }

  /** Attaches the open connection; cancels at once when a cancel came during connect. */
  async attach(connection: EngineConnection): Promise<void> {
    this.connection = connection;
    this.phase = 'query';
    if (connection.cancelId) this.post({ type: 'cancelId', queryId: this.queryId, cancelId: connection.cancelId });
  }

  private async cancel(): Promise<void> {
    setTimeout(() => this.giveUp?.(), CANCEL_GRACE_MS).unref();
    try {
      await this.connection?.cancel();
    } catch {
      // The statement may have finished meanwhile.
    }
  }

  async finish(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.port?.removeAllListeners('message');
    const connection = this.connection;
    this.connection = null;
    await connection?.close().catch(() => undefined);
  }
}

function cancelledResult(control: TaskControl, spec: EngineSpec, timeoutMs: number | null | undefined): TaskFailure | null {
  if (control.timedOut) return cancelledFailure('timed_out', spec.engineName, timeoutMs);
  if (control.stopped) return cancelledFailure('stopped', spec.engineName, timeoutMs);
  return null;
}

/** Runs `work` under the task's control; maps errors, stop and timeout to a failure result. */
async function controlled<T extends { ok: true }>(
  spec: EngineSpec,
  target: ConnectionTarget,
  control: TaskControl,
  timeoutMs: number | null | undefined,
  work: () => Promise<T>,
): Promise<T | TaskFailure> {
  try {
    const result = await Promise.race([work(), control.abandoned]);
    const cancelled = cancelledResult(control, spec, timeoutMs);
    if (cancelled) return cancelled;
    if (result === 'abandoned') throw new Error('The query did not end after cancel');
    return result;
  } catch (error) {
    const cancelled = cancelledResult(control, spec, timeoutMs);
    if (cancelled) return cancelled;
    return taskFailure(spec.mapError(error, control.phase, target));
  } finally {
    await control.finish();
  }
}

function specOf(target: ConnectionTarget): EngineSpec | TaskFailure {
  try {
    return getEngineSpec(target.uri);
  } catch (error) {
    return taskFailure(supersetError('GENERIC_DB_ENGINE_ERROR', error instanceof Error ? error.message : String(error), null));
  }
}

function dmlNotAllowed(spec: EngineSpec): TaskFailure {
  return taskFailure(supersetError('DML_NOT_ALLOWED_ERROR', 'Only SELECT statements are allowed against this database.', spec.engineName));
}

/** Executes SQL Lab SQL: statements in order in one session, limit on the last, rows paged to the results backend. */
export async function runQuery(task: RunTask, backend: ResultsBackend, port?: ControlPort): Promise<RunResult> {
  const startedAt = Date.now();
  const spec = specOf(task);
  if (!('engineName' in spec)) return spec;
  const dialect = spec.dialect;
  let statements = splitStatements(task.sql, dialect);
  if (statements.length === 0) return taskFailure(supersetError('GENERIC_DB_ENGINE_ERROR', 'The query is empty.', spec.engineName));
  const submitted = [...statements];
  if (task.allowDml === false && isMutating(task.sql, dialect)) return dmlNotAllowed(spec);
  const dropdownLimit = task.limit ?? null;
  let sqlLimit: number | null = null;
  let effectiveLimit: number | null = null;
  let maxRows: number | null = null;
  let tempTable: string | null = null;
  const lastIndex = statements.length - 1;
  const lastIsSelect = isSelect(statements[lastIndex], dialect);
  if (task.ctas) {
    if (dropdownLimit != null && lastIsSelect) statements[lastIndex] = applyLimit(statements[lastIndex], dropdownLimit, { dialect });
    const plan = buildCtas(statements.join(';\n'), task.ctas, spec.quoteIdentifier, dialect);
    if (!plan.ok) return taskFailure(supersetError(plan.errorType, plan.message, spec.engineName));
    statements = plan.statements;
    tempTable = task.ctas.schema ? `${task.ctas.schema}.${task.ctas.tableName}` : task.ctas.tableName;
  } else {
    sqlLimit = lastIsSelect ? getLimitFromSql(statements[lastIndex], dialect) : null;
    const limits = [sqlLimit, dropdownLimit].filter((l): l is number => l != null);
    effectiveLimit = limits.length > 0 ? Math.min(...limits) : null;
    if (effectiveLimit != null) {
      // One row more than the limit tells whether rows were cut (Superset's increased_limit).
      maxRows = effectiveLimit + 1;
      if (lastIsSelect) statements[lastIndex] = applyLimit(statements[lastIndex], maxRows, { dialect, force: true });
    }
  }
  const executedSql = statements.join(';\n');
  const resultsKey = task.resultsKey || task.queryId;
  const writer = new PageWriter(backend, resultsKey, { pageRows: task.pageRows, pageBytes: task.pageBytes });
  let hasMoreRows = false;
  let stored = 0;
  // Small results asked inline stay in memory until they outgrow `inlineMaxBytes`, then go to pages.
  const inlineMax = task.inlineMaxBytes ?? null;
  let inline: string[] | null = inlineMax != null && !task.ctas ? [] : null;
  let inlineBytes = 0;
  const spill = async (rows: string[], last: string) => {
    for (const row of rows) await writer.push(row);
    await writer.push(last);
  };
  /** Counts a row against the limit; false once the limit is reached (the row is the one past it). */
  const take = (): boolean => {
    if (effectiveLimit != null && stored >= effectiveLimit) {
      hasMoreRows = true;
      return false;
    }
    stored++;
    return true;
  };
  const keepInline = (rowJson: string): void | Promise<void> => {
    inlineBytes += rowJson.length + 1;
    if (inlineBytes <= inlineMax!) {
      inline!.push(rowJson);
      return;
    }
    const rows = inline!;
    inline = null;
    return spill(rows, rowJson);
  };
  const sink: RowSink = {
    setColumns: (columns: ResultColumn[]) => writer.setColumns(columns),
    push: (rowJson: string) => {
      if (!take()) return;
      return inline ? keepInline(rowJson) : writer.push(rowJson);
    },
    pushBytes: (row: Buffer, length: number) => {
      if (!take()) return;
      return inline ? keepInline(row.toString('utf8', 0, length)) : writer.pushBytes(row, length);
    },
  };
  const control = new TaskControl(port, task.queryId, task.timeoutMs, task.submittedAt);
  /** The statement being run, so an error's line can be found in the SQL as submitted. */
  let running = -1;
  const result = await controlled(spec, task, control, task.timeoutMs, async () => {
    const connection = await spec.connect(task);
    await control.attach(connection);
    for (let i = 0; i < statements.length; i++) {
      running = i;
      if (control.cancelled) throw new Error('cancelled');
      control.post({ type: 'progress', queryId: task.queryId, statement: i, statementCount: statements.length, rows: 0 });
      if (i < statements.length - 1) {
        await connection.execute(statements[i]);
      } else if (isPostgresConnection(connection) && lastIsSelect && !task.ctas) {
        await connection.stream(statements[i], sink, maxRows, true);
      } else {
        await connection.stream(statements[i], sink, maxRows);
      }
    }
    if (control.cancelled) throw new Error('cancelled');
    const limitingFactor = effectiveLimit == null && !hasMoreRows ? 'NOT_LIMITED' : computeLimitingFactor(dropdownLimit, sqlLimit, hasMoreRows);
    const rowsInline = inline as string[] | null;
    const meta = rowsInline
      ? { rowCount: rowsInline.length, columns: writer.columns, pageCount: 0, bytes: Math.max(0, inlineBytes - 1) + 2 }
      : await writer.finish({ queryId: task.queryId, limit: effectiveLimit, limitingFactor, executedSql, createdAt: Date.now() });
    return {
      ok: true as const,
      status: 'success' as const,
      queryId: task.queryId,
      resultsKey,
      ...(rowsInline ? { rowsJson: `[${rowsInline.join(',')}]` } : {}),
      rowCount: meta.rowCount,
      columns: meta.columns,
      executedSql,
      statementCount: statements.length,
      limit: effectiveLimit,
      sqlLimit,
      hasMoreRows,
      limitingFactor,
      pageCount: meta.pageCount,
      bytes: meta.bytes,
      tempTable,
      tempSchema: task.ctas?.schema ?? null,
      startedAt,
      endedAt: Date.now(),
    };
  });
  if (!result.ok) {
    await backend.delete(resultsKey).catch(() => undefined);
    if (running >= 0) result.errors = result.errors.map((error) => lineInSubmittedSql(error, task.sql, statements[running], running, submitted));
  }
  return result;
}

/** Catalogs, schemas, tables or one table's metadata. */
export async function readMetadata(task: MetadataTask): Promise<MetadataResult> {
  const spec = specOf(task);
  if (!('engineName' in spec)) return spec;
  const control = new TaskControl(undefined, 'metadata', task.timeoutMs);
  return controlled(spec, task, control, task.timeoutMs, async () => {
    const connection = await spec.connect({ uri: task.uri, catalog: task.catalog });
    await control.attach(connection);
    switch (task.what) {
      case 'catalogs':
        return { ok: true as const, what: 'catalogs' as const, catalogs: await connection.listCatalogs() };
      case 'schemas':
        return { ok: true as const, what: 'schemas' as const, schemas: await connection.listSchemas() };
      case 'functions':
        return { ok: true as const, what: 'functions' as const, functions: await connection.listFunctions() };
      case 'tables':
        return { ok: true as const, what: 'tables' as const, tables: await connection.listTables(task.schema ?? null) };
      case 'table':
        return { ok: true as const, what: 'table' as const, table: { ...(await connection.tableMetadata(task.schema, task.table)), catalog: task.catalog ?? null } };
    }
  }) as Promise<MetadataResult>;
}

/** EXPLAIN-based estimate of each statement. */
export async function estimateCost(task: EstimateTask): Promise<EstimateResult> {
  const spec = specOf(task);
  if (!('engineName' in spec)) return spec;
  // The estimate EXPLAINs each statement: `ANALYZE DELETE ...` would become EXPLAIN ANALYZE and run.
  if (task.allowDml === false && isMutating(task.sql, spec.dialect)) return dmlNotAllowed(spec);
  const control = new TaskControl(undefined, 'estimate', task.timeoutMs);
  return controlled(spec, task, control, task.timeoutMs, async () => {
    const connection = await spec.connect(task);
    await control.attach(connection);
    const cost: Record<string, unknown>[] = [];
    for (const statement of splitStatements(task.sql, spec.dialect)) cost.push(await connection.estimate(statement));
    return { ok: true as const, cost };
  });
}

/** Connects and runs `SELECT 1`. */
export async function testConnection(task: TestConnectionTask): Promise<TestConnectionResult> {
  const spec = specOf(task);
  if (!('engineName' in spec)) return spec;
  const control = new TaskControl(undefined, 'test', task.timeoutMs ?? 30_000);
  return controlled(spec, task, control, task.timeoutMs, async () => {
    const connection = await spec.connect(task);
    await control.attach(connection);
    await connection.execute('SELECT 1');
    return { ok: true as const };
  });
}

/** Cancels by engine cancel id from a fresh connection. */
export async function cancelQuery(task: CancelTask): Promise<CancelResult> {
  const spec = specOf(task);
  if (!('engineName' in spec)) return spec;
  try {
    return { ok: true, cancelled: await spec.cancelById(task, task.cancelId) };
  } catch (error) {
    return taskFailure(spec.mapError(error, 'connect', task));
  }
}
