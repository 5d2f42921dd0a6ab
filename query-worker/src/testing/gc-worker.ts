/**
 * Test-only pool worker: the real worker (worker.ts) in a thread that collects garbage every few
 * milliseconds while a task runs (and not between tasks), so an object an engine drops mid-task,
 * such as a DuckDB instance whose connection is still streaming, is freed before the task ends,
 * as happens under load in the server.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import handle from '../worker.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

export default async function collectingHandle(input: Parameters<typeof handle>[0]): Promise<unknown> {
  const timer = setInterval(gc, 10);
  try {
    return await handle(input);
  } finally {
    clearInterval(timer);
  }
}
