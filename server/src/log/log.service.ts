import type { ListQuery } from '@meridian/contracts';
import { metadataId } from '../common/ids';
import { NotFound } from '../errors/domain-errors';
import type { Logger } from '../logger';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { LogEntry, LogRepository, LogView } from './log.repository';

/** A client-side event posted to `POST /api/v1/log/` (Superset's frontend event logger sends these). */
export interface ClientEvent {
  event_name?: string;
  source?: string;
  source_id?: number | string;
  slice_id?: number;
  duration?: number;
  [key: string]: unknown;
}

const int = metadataId;

/**
 * The action log: every call that changes something (recorded by the server itself, see `app.ts`) and the
 * events clients post. Admins read it (`can_read` on Log).
 */
export class LogService {
  constructor(private readonly deps: { logs: LogRepository; security: SecurityService; logger: Logger }) {}

  /** Records entries without failing the caller: a log write that fails is reported, never thrown. */
  record(entries: LogEntry[]): void {
    this.deps.logs.insert(entries).catch((error) => this.deps.logger.warn({ err: error }, 'action log write failed'));
  }

  async list(actor: Actor | null, query: ListQuery): Promise<{ count: number; ids: number[]; result: LogView[] }> {
    this.deps.security.require(actor, 'can_read', 'Log');
    const { count, rows } = await this.deps.logs.list(query);
    return { count, ids: rows.map((r) => r.id), result: rows };
  }

  async get(actor: Actor | null, id: number): Promise<LogView> {
    this.deps.security.require(actor, 'can_read', 'Log');
    const row = await this.deps.logs.get(id);
    if (!row) throw new NotFound();
    return row;
  }

  /**
   * `POST /api/v1/log/` and `/superset/log/`: the caller's own client events, one row each (dashboard and chart
   * taken from the event's source). An embedded dashboard's guest logs too, without a user.
   */
  async post(actor: Actor | null, events: ClientEvent[], referrer: string | null): Promise<number[]> {
    if (!actor?.guest) this.deps.security.require(actor, 'can_write', 'Log');
    return this.deps.logs.insert(
      events.map((event) => ({
        action: String(event.event_name ?? 'log').slice(0, 512),
        user_id: actor!.guest ? null : actor!.userId,
        json: JSON.stringify(event),
        dashboard_id: event.source === 'dashboard' ? int(event.source_id) : int(event.dashboard_id),
        slice_id: int(event.slice_id) ?? (event.source === 'slice' || event.source === 'explore' ? int(event.source_id) : null),
        duration_ms: int(event.duration),
        referrer: referrer?.slice(0, 1024) ?? null,
      })),
    );
  }
}
