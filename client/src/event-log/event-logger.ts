import { LOG_EVENT_DELAY_MS, LOG_EVENT_ENDPOINT, nextBatch, TIMING_EVENTS, type LogEvent } from '@meridian/contracts/rules/event-log';
import { currentGuestToken } from '../api';

/** One page load's id: every event of it carries it (Superset's impression_id). */
const IMPRESSION_ID = Math.random().toString(36).slice(2, 12);

let queue: LogEvent[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;

/** Sends one batch: as a beacon when the page is being left, else as a keepalive POST. Lost events are not retried. */
function send(batch: LogEvent[], beacon: boolean): void {
  const form = new FormData();
  form.append('events', JSON.stringify(batch));
  const guestToken = currentGuestToken();
  if (guestToken) form.append('guest_token', guestToken);
  if (beacon && typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(LOG_EVENT_ENDPOINT, form)) return;
  void fetch(LOG_EVENT_ENDPOINT, { method: 'POST', body: form, credentials: 'same-origin', keepalive: true }).catch(() => undefined);
}

/** Sends what is queued, at most 1024 events a send (spec 02 §4). */
export function flushEvents(beacon = false): void {
  if (timer) clearTimeout(timer);
  timer = null;
  while (queue.length) {
    const { batch, rest } = nextBatch(queue);
    queue = rest;
    send(batch, beacon);
  }
}

/**
 * Queues one event (spec 02 §3 Log event) for the next batch, sent a second after the first event queued;
 * what is still queued goes as a beacon when the page is hidden or left. Its event_type is 'timing' for the events
 * that measure (load_chart, render_chart), else 'user', unless the fields say otherwise.
 */
export function logEvent(eventName: string, fields: Pick<LogEvent, 'source'> & Partial<LogEvent>): void {
  queue.push({
    impression_id: IMPRESSION_ID,
    version: 'v2',
    ts: Date.now(),
    event_name: eventName,
    event_type: TIMING_EVENTS.has(eventName) ? 'timing' : 'user',
    event_id: Math.random().toString(36).slice(2, 12),
    visibility: typeof document !== 'undefined' && document.visibilityState === 'hidden' ? 'hidden' : 'visible',
    ...fields,
  });
  timer ??= setTimeout(() => flushEvents(), LOG_EVENT_DELAY_MS);
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => flushEvents(true));
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushEvents(true);
  });
}
