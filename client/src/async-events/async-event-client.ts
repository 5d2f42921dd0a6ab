/**
 * The async-event client of spec 01 §7 (GLOBAL_ASYNC_QUERIES): a job answered 202 resolves when its
 * event (status done or error) arrives. Events come through a WebSocket carrying `last_id`; when the
 * socket fails, it is tried again up to 6 times every 2500 ms, then the client polls
 * `GET /api/v1/async_event/` every 500 ms. The last event id is kept in local storage, so a reload
 * resumes after it. An event whose job nobody waits for yet (its 202 answer may still be on its way)
 * is retried up to 6 times at multiples of 100 ms.
 */
import type { AsyncEvent } from '@meridian/contracts';
import {
  ASYNC_LAST_EVENT_ID_STORAGE_KEY,
  ASYNC_LISTENER_MAX_RETRIES,
  ASYNC_POLLING_INTERVAL_MS,
  ASYNC_WS_MAX_RETRIES,
  ASYNC_WS_RETRY_DELAY_MS,
  asyncListenerRetryDelay,
} from '@meridian/contracts/rules/constants';
import { api } from '../api';

/** What the client needs from the page; injected in unit tests. */
export interface AsyncEventEnv {
  /** Opens the events socket after `lastId`; null when the page has no WebSocket. */
  openSocket: ((lastId: string | null) => WebSocket) | null;
  /** `GET /api/v1/async_event/?last_id=`. */
  poll: (lastId: string | null) => Promise<AsyncEvent[]>;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

interface Waiter {
  resolve: (event: AsyncEvent) => void;
  reject: (error: unknown) => void;
}

/** Which transport carries the events now. */
export type AsyncTransport = 'idle' | 'socket' | 'polling';

export class AsyncEventClient {
  private readonly waiters = new Map<string, Waiter>();
  private lastId: string | null;
  private transport: AsyncTransport = 'idle';
  private socket: WebSocket | null = null;
  private socketRetries = 0;
  private pollTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly env: AsyncEventEnv) {
    this.lastId = env.storage?.getItem(ASYNC_LAST_EVENT_ID_STORAGE_KEY) ?? null;
  }

  get mode(): AsyncTransport {
    return this.transport;
  }

  /** Resolves with the job's done or error event; an abort rejects with an AbortError and stops waiting. */
  waitForJob(jobId: string, signal?: AbortSignal): Promise<AsyncEvent> {
    return new Promise<AsyncEvent>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
      const onAbort = () => {
        this.waiters.delete(jobId);
        reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(jobId, {
        resolve: (event) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(event);
        },
        reject,
      });
      this.start();
    });
  }

  /** Closes the socket and stops polling (the page is leaving). */
  close(): void {
    this.transport = 'idle';
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close();
  }

  /** Takes in one event: it moves `last_id` on and settles its job's waiter, or is retried for a job not yet waited for. */
  receive(event: AsyncEvent, attempt = 0): void {
    if (attempt === 0 && event.id) {
      this.lastId = event.id;
      try {
        this.env.storage?.setItem(ASYNC_LAST_EVENT_ID_STORAGE_KEY, event.id);
      } catch {
        // Storage full or refused: the id still lives in memory for this page.
      }
    }
    if (event.status !== 'done' && event.status !== 'error') return;
    const waiter = this.waiters.get(event.job_id);
    if (waiter) {
      this.waiters.delete(event.job_id);
      waiter.resolve(event);
    } else if (attempt < ASYNC_LISTENER_MAX_RETRIES) {
      setTimeout(() => this.receive(event, attempt + 1), asyncListenerRetryDelay(attempt + 1));
    }
  }

  private start(): void {
    if (this.transport !== 'idle') {
      if (this.transport === 'polling' && !this.pollTimer) this.schedulePoll(0);
      return;
    }
    if (this.env.openSocket) this.connect();
    else this.startPolling();
  }

  private connect(): void {
    this.transport = 'socket';
    let socket: WebSocket;
    try {
      socket = this.env.openSocket!(this.lastId);
    } catch {
      this.socketFailed();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.socketRetries = 0;
    };
    socket.onmessage = (message) => {
      try {
        this.receive(JSON.parse(String(message.data)) as AsyncEvent);
      } catch {
        // A message that is not an event is ignored.
      }
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.socketFailed();
    };
  }

  private socketFailed(): void {
    if (this.transport !== 'socket') return;
    if (this.socketRetries < ASYNC_WS_MAX_RETRIES) {
      this.socketRetries += 1;
      setTimeout(() => {
        if (this.transport === 'socket' && !this.socket) this.connect();
      }, ASYNC_WS_RETRY_DELAY_MS);
    } else this.startPolling();
  }

  private startPolling(): void {
    this.transport = 'polling';
    this.schedulePoll(0);
  }

  /** Polls while some job is waited for; the next `waitForJob` starts it again. */
  private schedulePoll(delay: number): void {
    this.pollTimer = setTimeout(async () => {
      try {
        for (const event of await this.env.poll(this.lastId)) this.receive(event);
      } catch {
        // The server is unreachable for now: the next poll tries again.
      }
      this.pollTimer = null;
      if (this.transport === 'polling' && this.waiters.size > 0) this.schedulePoll(ASYNC_POLLING_INTERVAL_MS);
    }, delay);
  }
}

let shared: AsyncEventClient | null = null;

/** The page's one client, on the real socket and REST path. */
export function asyncEvents(): AsyncEventClient {
  shared ??= new AsyncEventClient({
    openSocket:
      typeof WebSocket === 'undefined'
        ? null
        : (lastId) => {
            const url = new URL('/ws', window.location.href);
            url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
            if (lastId) url.searchParams.set('last_id', lastId);
            return new WebSocket(url);
          },
    poll: async (lastId) => (await api<{ result: AsyncEvent[] }>('/api/v1/async_event/', { query: lastId ? { last_id: lastId } : {} })).result,
    storage: typeof localStorage === 'undefined' ? null : localStorage,
  });
  return shared;
}
