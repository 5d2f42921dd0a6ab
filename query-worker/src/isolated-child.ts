/**
 * Child process of isolated runs (see isolated.ts): runs the tasks its worker thread sends, one
 * at a time, sending their events and results back. Stop and timeout are a SIGKILL from the
 * thread. Exits when the thread goes away (IPC disconnect) or after a minute without work.
 */
import { createResultsBackend, type ResultsBackend } from './results/results-backend.ts';
import { runQuery, type ControlPort } from './tasks.ts';
import type { IsolatedMessage, IsolatedRequest } from './isolated.ts';

const IDLE_EXIT_MS = 60_000;

const backends = new Map<string, ResultsBackend>();
let idle: NodeJS.Timeout | null = null;

const send = (message: IsolatedMessage): Promise<void> =>
  new Promise((resolve) => {
    if (!process.connected) return resolve();
    process.send!(message, undefined, {}, () => resolve());
  });

async function exit(): Promise<never> {
  await Promise.all([...backends.values()].map((b) => b.close().catch(() => undefined)));
  process.exit(0);
}

function armIdle(): void {
  idle = setTimeout(() => void exit(), IDLE_EXIT_MS);
}

process.on('disconnect', () => void exit());
process.on('message', async ({ task, results }: IsolatedRequest) => {
  if (idle) clearTimeout(idle);
  const key = JSON.stringify(results);
  let backend = backends.get(key);
  if (!backend) backends.set(key, (backend = createResultsBackend(results)));
  const port: ControlPort = {
    on: () => undefined,
    postMessage: (message) => void send({ type: 'event', message }),
    removeAllListeners: () => undefined,
  };
  const result = await runQuery(task, backend, port);
  await send({ type: 'result', result });
  armIdle();
});
armIdle();
