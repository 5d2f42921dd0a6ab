import type { AsyncEvent } from '@meridian/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AsyncEventClient, type AsyncEventEnv } from './async-event-client';

/** A socket the test drives: `open`, `message` and `close` stand for the server's side. */
class FakeSocket {
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(readonly lastId: string | null) {}
  open() {
    this.onopen?.();
  }
  message(event: Partial<AsyncEvent>) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
  close() {
    this.closed = true;
    this.onclose?.();
  }
}

const event = (jobId: string, id: string, status: AsyncEvent['status'] = 'done'): AsyncEvent => ({ id, job_id: jobId, channel_id: 'user-1', user_id: 1, status, errors: [], result_url: `/api/v1/chart/data/${jobId}` });

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), items };
}

describe('async-event client (spec 01 §7 "Asynchronous events")', () => {
  let sockets: FakeSocket[];
  let polls: Array<string | null>;
  let pollAnswers: AsyncEvent[][];
  let env: AsyncEventEnv & { storage: ReturnType<typeof memoryStorage> };

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    polls = [];
    pollAnswers = [];
    env = {
      openSocket: (lastId) => {
        const socket = new FakeSocket(lastId);
        sockets.push(socket);
        return socket as unknown as WebSocket;
      },
      poll: async (lastId) => {
        polls.push(lastId);
        return pollAnswers.shift() ?? [];
      },
      storage: memoryStorage({ last_async_event_id: '100-0' }),
    };
  });
  afterEach(() => vi.useRealTimers());

  it('"a WebSocket carrying last_id": connects with the id kept in local storage and resolves the job on its event', async () => {
    const client = new AsyncEventClient(env);
    const done = client.waitForJob('job-1');
    expect(sockets).toHaveLength(1);
    expect(sockets[0].lastId).toBe('100-0');
    sockets[0].open();
    sockets[0].message(event('job-1', '101-0'));
    await expect(done).resolves.toMatchObject({ job_id: 'job-1', status: 'done' });
    // "The last event id is kept in local storage."
    expect(env.storage.items.get('last_async_event_id')).toBe('101-0');
  });

  it('"reconnect up to 6 tries every 2500 ms, then fall back to polling" every 500 ms', async () => {
    const client = new AsyncEventClient(env);
    const done = client.waitForJob('job-2');
    sockets[0].close();
    for (let i = 1; i <= 6; i++) {
      await vi.advanceTimersByTimeAsync(2499);
      expect(sockets).toHaveLength(i);
      await vi.advanceTimersByTimeAsync(1);
      expect(sockets).toHaveLength(i + 1);
      sockets[i].close();
    }
    expect(client.mode).toBe('polling');
    await vi.advanceTimersByTimeAsync(0);
    expect(polls).toEqual(['100-0']);
    pollAnswers.push([event('job-2', '105-3')]);
    await vi.advanceTimersByTimeAsync(499);
    expect(polls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toMatchObject({ id: '105-3' });
    // Nothing waits any more: polling stops until the next job.
    await vi.advanceTimersByTimeAsync(5000);
    expect(polls).toHaveLength(2);
  });

  it('a socket that opened again starts its 6 tries afresh', async () => {
    const client = new AsyncEventClient(env);
    void client.waitForJob('job-3');
    for (let round = 0; round < 10; round++) {
      sockets[sockets.length - 1].open();
      sockets[sockets.length - 1].close();
      await vi.advanceTimersByTimeAsync(2500);
    }
    expect(client.mode).toBe('socket');
  });

  it('"events for unknown jobs are retried up to 6 times at 100 ms multiples"', async () => {
    const client = new AsyncEventClient(env);
    const first = client.waitForJob('known');
    sockets[0].message(event('late', '110-0'));
    // The job's 202 answer arrives 1 s later (four retries, 100+200+300+400 ms, have passed): still matched.
    await vi.advanceTimersByTimeAsync(1000);
    const late = client.waitForJob('late');
    await vi.advanceTimersByTimeAsync(500);
    await expect(late).resolves.toMatchObject({ job_id: 'late' });
    // After the sixth retry (2100 ms in all) the event is dropped.
    sockets[0].message(event('never', '111-0'));
    await vi.advanceTimersByTimeAsync(2200);
    const never = client.waitForJob('never');
    let settled = false;
    void never.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(3000);
    expect(settled).toBe(false);
    sockets[0].message(event('known', '112-0'));
    await expect(first).resolves.toMatchObject({ job_id: 'known' });
  });

  it('an error event settles the job too; pending and running events only move last_id', async () => {
    const client = new AsyncEventClient(env);
    const job = client.waitForJob('job-4');
    sockets[0].message(event('job-4', '120-0', 'running'));
    expect(env.storage.items.get('last_async_event_id')).toBe('120-0');
    sockets[0].message({ ...event('job-4', '121-0', 'error'), errors: [{ message: 'boom' }] });
    await expect(job).resolves.toMatchObject({ status: 'error', errors: [{ message: 'boom' }] });
  });

  it('an abort stops waiting for the job', async () => {
    const client = new AsyncEventClient(env);
    const abort = new AbortController();
    const job = client.waitForJob('job-5', abort.signal);
    abort.abort();
    await expect(job).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('without WebSocket it polls from the start', async () => {
    const client = new AsyncEventClient({ ...env, openSocket: null });
    const job = client.waitForJob('job-6');
    pollAnswers.push([event('job-6', '130-0')]);
    await vi.advanceTimersByTimeAsync(0);
    await expect(job).resolves.toMatchObject({ job_id: 'job-6' });
    expect(client.mode).toBe('polling');
  });
});
