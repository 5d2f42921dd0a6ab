import { readlinkSync } from 'node:fs';
import os from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { workerData } from 'piscina';
import { createResultsBackend, type ResultsBackend } from './results/results-backend.ts';
import { runIsolated, runsIsolated } from './isolated.ts';
import { cancelQuery, estimateCost, readMetadata, runQuery, testConnection } from './tasks.ts';
import { supersetError, taskFailure } from './engines/errors.ts';
import { claimGate, type WorkerConfig } from './pool.ts';
import { cancelledFailure } from './engines/errors.ts';
import { getEngineSpec } from './engines/registry.ts';
import type { Task } from './types.ts';
import { uploadFile, uploadMetadata } from './upload/upload-task.ts';

let backend: ResultsBackend | null = null;

/**
 * General query threads run at a lower CPU priority than the web thread (Linux: niceness is per
 * thread), so a busy pool never makes the server slow to answer. The pool sets the amount per
 * thread from QUERY_WORKER_NICE (default 10; 0 = off); the DuckDB thread gets 0 (pool.ts says why).
 */
function lowerPriority(): void {
  const nice = Number((workerData as WorkerConfig | undefined)?.nice ?? 0);
  if (!(nice > 0) || process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (tid > 0) os.setPriority(tid, Math.min(19, os.getPriority(tid) + nice));
  } catch {
    // Not permitted or no /proc: run at the normal priority.
  }
}
lowerPriority();

function resultsBackend(): ResultsBackend {
  backend ??= createResultsBackend((workerData as WorkerConfig).results);
  return backend;
}

/** Piscina entry: one task per call; never throws (errors come back as `{ ok: false }`). */
export default async function handle({ task, port, gate }: { task: Task; port?: MessagePort; gate?: Int32Array }): Promise<unknown> {
  try {
    switch (task.kind) {
      case 'run': {
        // Stopped or timed out while queued: the pool has answered already; never touch the database.
        const claim = gate ? claimGate(gate) : 'start';
        if (claim !== 'start') return cancelledFailure(claim, getEngineSpec(task.uri).engineName, task.timeoutMs);
        if (runsIsolated(task)) return await runIsolated(task, resultsBackend(), (workerData as WorkerConfig).results, port);
        return await runQuery(task, resultsBackend(), port);
      }
      case 'metadata':
        return await readMetadata(task);
      case 'estimate':
        return await estimateCost(task);
      case 'testConnection':
        return await testConnection(task);
      case 'cancel':
        return await cancelQuery(task);
      case 'upload':
        return await uploadFile(task);
      case 'uploadMetadata':
        return await uploadMetadata(task);
      default:
        return taskFailure(supersetError('GENERIC_BACKEND_ERROR', `Unknown task ${(task as { kind: string }).kind}`, null));
    }
  } catch (error) {
    return taskFailure(supersetError('GENERIC_BACKEND_ERROR', error instanceof Error ? error.message : String(error), null));
  } finally {
    port?.close();
  }
}
