import { sql } from 'kysely';
import type { MetadataDb } from '../db/database';

export interface ActivityRow {
  action: 'explore' | 'dashboard' | 'run';
  item_type: 'query' | 'slice' | 'dashboard';
  item_id: number;
  item_title: string;
  time: Date;
}

export interface FavoriteRow {
  item_type: 'slice' | 'dashboard';
  item_id: number;
  item_title: string;
  time: Date;
}

/** Superset's view actions that count as recent activity (LogDAO.get_recent_activity). */
const VIEW_ACTIONS = ['explore', 'dashboard'];

/** What the home page reads: one user's recent views and queries, and their favourites. */
export class HomeRepository {
  constructor(private readonly db: MetadataDb) {}

  /**
   * The user's recent views of charts and dashboards (from the event log, as Superset) and the SQL they ran,
   * newest first. With `distinct`, an item is listed once, at its latest time; a query once per SQL text and database.
   */
  async recentActivity(userId: number, limit: number, distinct: boolean): Promise<ActivityRow[]> {
    const views = this.db
      .selectFrom('logs as l')
      .leftJoin('slices as s', 's.id', 'l.slice_id')
      .leftJoin('dashboards as d', 'd.id', 'l.dashboard_id')
      .where('l.user_id', '=', userId)
      .where('l.action', 'in', VIEW_ACTIONS)
      .where((eb) => eb.or([eb.and([eb('l.action', '=', 'explore'), eb('s.slice_name', 'is not', null), eb('s.slice_name', '<>', '')]), eb.and([eb('l.action', '=', 'dashboard'), eb('d.dashboard_title', 'is not', null), eb('d.dashboard_title', '<>', '')])]));
    const viewRows = distinct
      ? await views
          .select(['l.action', 'l.slice_id', 'l.dashboard_id', 's.slice_name', 'd.dashboard_title', sql<Date>`max(l.dttm)`.as('dttm')])
          .groupBy(['l.action', 'l.slice_id', 'l.dashboard_id', 's.slice_name', 'd.dashboard_title'])
          .orderBy(sql`max(l.dttm)`, 'desc')
          .limit(limit)
          .execute()
      : await views.select(['l.action', 'l.slice_id', 'l.dashboard_id', 's.slice_name', 'd.dashboard_title', 'l.dttm']).orderBy('l.dttm', 'desc').limit(limit).execute();

    const queries = this.db.selectFrom('query').where('user_id', '=', userId).where('sql', 'is not', null);
    const queryRows = distinct
      ? await queries
          .select([sql<number>`max(id)`.as('id'), 'sql', sql<Date>`max(changed_on)`.as('changed_on')])
          .groupBy(['sql', 'database_id'])
          .orderBy(sql`max(changed_on)`, 'desc')
          .limit(limit)
          .execute()
      : await queries.select(['id', 'sql', 'changed_on']).orderBy('changed_on', 'desc').limit(limit).execute();

    const rows: ActivityRow[] = [
      ...viewRows.map((v): ActivityRow =>
        v.action === 'explore'
          ? { action: 'explore', item_type: 'slice', item_id: v.slice_id!, item_title: v.slice_name!, time: new Date(v.dttm) }
          : { action: 'dashboard', item_type: 'dashboard', item_id: v.dashboard_id!, item_title: v.dashboard_title!, time: new Date(v.dttm) },
      ),
      ...queryRows.map((q): ActivityRow => ({ action: 'run', item_type: 'query', item_id: q.id, item_title: (q.sql ?? '').replace(/\s+/g, ' ').trim().slice(0, 120) || 'Query', time: new Date(q.changed_on) })),
    ];
    return rows.sort((a, b) => b.time.getTime() - a.time.getTime()).slice(0, limit);
  }

  async favorites(userId: number, limit: number): Promise<FavoriteRow[]> {
    const rows = await this.db
      .selectFrom('favstar as f')
      .leftJoin('slices as s', (j) => j.onRef('s.id', '=', 'f.obj_id').on('f.class_name', '=', 'slice'))
      .leftJoin('dashboards as d', (j) => j.onRef('d.id', '=', 'f.obj_id').on('f.class_name', '=', 'Dashboard'))
      .select(['f.class_name', 'f.obj_id', 'f.dttm', 's.slice_name', 'd.dashboard_title'])
      .where('f.user_id', '=', userId)
      .where((eb) => eb.or([eb('s.id', 'is not', null), eb('d.id', 'is not', null)]))
      .orderBy('f.dttm', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      item_type: r.class_name === 'slice' ? 'slice' : 'dashboard',
      item_id: r.obj_id,
      item_title: (r.class_name === 'slice' ? r.slice_name : r.dashboard_title) ?? '[ untitled dashboard ]',
      time: new Date(r.dttm),
    }));
  }
}
