/**
 * Test-only pool worker: the real worker (worker.ts), whose task results also carry the id of
 * the thread that ran the task (`threadId`), so tests can check which thread an engine's tasks
 * ran on.
 */
import { threadId } from 'node:worker_threads';
import handle from '../worker.ts';

export default async function threadTaggingHandle(input: Parameters<typeof handle>[0]): Promise<unknown> {
  const result = await handle(input);
  return result !== null && typeof result === 'object' ? { ...result, threadId } : result;
}
