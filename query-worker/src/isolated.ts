import { fork, type ChildProcess } from 'node:child_process';
import type { MessagePort } from 'node:worker_threads';
import { getEngineSpec } from './engines/registry.ts';
import { cancelledFailure, errorMessage, supersetError, taskFailure } from './engines/errors.ts';
import type { ControlMessage, WorkerMessage } from './pool.ts';
import type { ResultsBackend } from './results/results-backend.ts';
import { remainingTimeoutMs } from './tasks.ts';
import type { ResultsBackendOptions, RunResult, RunTask } from './types.ts';

/** Parent → child: the task to run and where to write its pages. */
export interface IsolatedRequest {
  task: RunTask;
  results: ResultsBackendOptions;
}

/** Child → parent: an event of the running query, then its result. */
export type IsolatedMessage = { type: 'event'; message: WorkerMessage } | { type: 'result'; result: RunResult };

const here = new URL(import.meta.url);
const isTs = here.pathname.endsWith('.ts');
const CHILD = new URL(isTs ? './isolated-child.ts' : './isolated-child.js', here);

/**
 * Whether a run must go to a child process: engines whose statements cannot be interrupted from
 * the worker thread (`cancelsInThread: false`, SQLite). A thread blocked in a native statement
 * can't be ended either (`worker.terminate()` waits for the statement, and so does process exit),
 * but a process can be killed.
 */
export function runsIsolated(task: RunTask): boolean {
  try {
    return !getEngineSpec(task.uri).cancelsInThread;
  } catch {
    return false;
  }
}

/** The worker thread's child process, kept between runs; replaced after a kill. */
let warm: ChildProcess | null = null;

function isolatedProcess(): ChildProcess {
  if (warm && warm.connected && warm.exitCode === null && warm.signalCode === null) return warm;
  const child = fork(CHILD, [], { execArgv: isTs ? ['--import', 'tsx'] : [], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.once('exit', () => {
    if (warm === child) warm = null;
  });
  // An idle child exits by itself (isolated-child.ts); its error must not end the thread.
  child.on('error', () => undefined);
  warm = child;
  return child;
}

/**
 * Runs a SQL Lab task in the thread's child process, which the thread kills on stop (the task's
 * port) or timeout, resolving `stopped`/`timed_out` as in-thread runs do, after deleting any pages
 * the child wrote. The child writes pages straight to the shared results backend.
 */
export async function runIsolated(task: RunTask, backend: ResultsBackend, results: ResultsBackendOptions, port?: MessagePort): Promise<RunResult> {
  const engineName = getEngineSpec(task.uri).engineName;
  const resultsKey = task.resultsKey || task.queryId;
  let child: ChildProcess;
  try {
    child = isolatedProcess();
  } catch (error) {
    return taskFailure(supersetError('GENERIC_BACKEND_ERROR', `Could not start the query process: ${errorMessage(error)}`, engineName));
  }
  let ended: 'stopped' | 'timed_out' | null = null;
  let timer: NodeJS.Timeout | null = null;
  const outcome = await new Promise<{ result: RunResult } | { exit: string }>((resolve) => {
    const onMessage = (message: IsolatedMessage) => {
      if (message.type === 'event') port?.postMessage(message.message);
      else if (!ended) done({ result: message.result });
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => done({ exit: signal ? `signal ${signal}` : `code ${code}` });
    const onError = (error: Error) => done({ exit: errorMessage(error) });
    const done = (value: { result: RunResult } | { exit: string }) => {
      child.off('message', onMessage).off('exit', onExit).off('error', onError);
      resolve(value);
    };
    const kill = (reason: 'stopped' | 'timed_out') => {
      if (ended) return;
      ended = reason;
      child.kill('SIGKILL');
    };
    child.on('message', onMessage).once('exit', onExit).once('error', onError);
    port?.on('message', (message: ControlMessage) => {
      if (message.type === 'cancel') kill('stopped');
    });
    // The timeout runs here, where it can kill the process; the child gets none.
    const delay = remainingTimeoutMs(task.timeoutMs, task.submittedAt);
    if (delay != null) timer = setTimeout(() => kill('timed_out'), delay);
    child.send({ task: { ...task, timeoutMs: null }, results } satisfies IsolatedRequest, (error) => error && done({ exit: errorMessage(error) }));
  });
  if (timer) clearTimeout(timer);
  port?.removeAllListeners('message');
  if ('result' in outcome) return outcome.result;
  await backend.delete(resultsKey).catch(() => undefined);
  if (ended) {
    // The process is gone (exit seen), so no page write lands after the delete above.
    if (ended === 'stopped') port?.postMessage({ type: 'cancelled', queryId: task.queryId } satisfies WorkerMessage);
    return cancelledFailure(ended, engineName, task.timeoutMs);
  }
  return taskFailure(supersetError('GENERIC_BACKEND_ERROR', `The query process ended unexpectedly (${outcome.exit}).`, engineName));
}
