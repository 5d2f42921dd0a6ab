import { describe, expect, it } from 'vitest';
import { LOG_EVENT_BATCH_MAX, LOG_EVENT_DELAY_MS, nextBatch } from './event-log';

describe("spec 02 §4: 'Log events are batched: at most 1024 per send, delayed 1 second'", () => {
  it('sends at most 1024 events at once, oldest first, keeping the rest for the next send', () => {
    expect(LOG_EVENT_BATCH_MAX).toBe(1024);
    expect(LOG_EVENT_DELAY_MS).toBe(1000);
    const queue = Array.from({ length: 2500 }, (_, i) => i);
    const first = nextBatch(queue);
    expect(first.batch).toHaveLength(1024);
    expect(first.batch[0]).toBe(0);
    expect(first.rest[0]).toBe(1024);
    const third = nextBatch(nextBatch(first.rest).rest);
    expect(third.batch).toEqual(queue.slice(2048));
    expect(third.rest).toEqual([]);
    expect(nextBatch([])).toEqual({ batch: [], rest: [] });
  });
});
