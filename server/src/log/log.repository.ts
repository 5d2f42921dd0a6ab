import type { ListQuery } from '@meridian/contracts';
import { runListQuery } from '../common/list-query';
import type { MetadataDb } from '../db/database';
import { pythonIsoformat } from '@meridian/contracts/rules/dates';

/** One row of the action log (`logs`). */
export interface LogEntry {
  action: string;
  user_id: number | null;
  json: string | null;
  dashboard_id: number | null;
  slice_id: number | null;
  duration_ms: number | null;
  referrer: string | null;
}

/** A log row as `GET /api/v1/log/` answers it (Superset's LogRestApi list_columns). */
export interface LogView extends LogEntry {
  id: number;
  dttm: string;
  user: { username: string | null; first_name: string | null; last_name: string | null } | null;
}

const COLUMNS = {
  id: 'logs.id',
  action: 'logs.action',
  user: 'logs.user_id',
  user_id: 'logs.user_id',
  dttm: 'logs.dttm',
  dashboard_id: 'logs.dashboard_id',
  slice_id: 'logs.slice_id',
  duration_ms: 'logs.duration_ms',
  referrer: 'logs.referrer',
  json: 'logs.json',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const LOG_ORDER_COLUMNS = Object.keys(COLUMNS);

export class LogRepository {
  constructor(private readonly db: MetadataDb) {}

  async insert(entries: LogEntry[]): Promise<number[]> {
    if (!entries.length) return [];
    const rows = await this.db.insertInto('logs').values(entries.map((e) => ({ ...e, dttm: new Date() }))).returning('id').execute();
    return rows.map((r) => r.id);
  }

  private base() {
    return this.db
      .selectFrom('logs')
      .leftJoin('ab_user as u', 'u.id', 'logs.user_id')
      .selectAll('logs')
      .select(['u.username', 'u.first_name', 'u.last_name']);
  }

  async list(query: ListQuery): Promise<{ count: number; rows: LogView[] }> {
    const { count, rows } = await runListQuery(this.base(), query, { columns: COLUMNS, idColumn: 'logs.id', defaultOrder: ['dttm', 'desc'] });
    return { count, rows: rows.map(toView) };
  }

  async get(id: number): Promise<LogView | undefined> {
    const row = await this.base().where('logs.id', '=', id).executeTakeFirst();
    return row ? toView(row) : undefined;
  }
}

function toView(r: { id: number; action: string | null; user_id: number | null; json: string | null; dttm: Date | string; dashboard_id: number | null; slice_id: number | null; duration_ms: number | null; referrer: string | null; username: string | null; first_name: string | null; last_name: string | null }): LogView {
  return {
    id: r.id,
    action: r.action ?? '',
    user_id: r.user_id,
    user: r.user_id === null ? null : { username: r.username, first_name: r.first_name, last_name: r.last_name },
    dttm: pythonIsoformat(r.dttm),
    json: r.json,
    dashboard_id: r.dashboard_id,
    slice_id: r.slice_id,
    duration_ms: r.duration_ms,
    referrer: r.referrer,
  };
}
