import type { MetadataDb } from '../db/database';

export interface ActivityRow {
  action: 'run' | 'edit';
  item_type: 'query' | 'saved_query' | 'slice' | 'dashboard';
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

/** What the home page reads: one user's recent queries and edits, and their favourites. */
export class HomeRepository {
  constructor(private readonly db: MetadataDb) {}

  async recentActivity(userId: number, limit: number): Promise<ActivityRow[]> {
    const [queries, saved, charts, dashboards] = await Promise.all([
      this.db.selectFrom('query').select(['id', 'sql', 'tab_name', 'changed_on']).where('user_id', '=', userId).orderBy('changed_on', 'desc').limit(limit).execute(),
      this.db.selectFrom('saved_query').select(['id', 'label', 'changed_on']).where('changed_by_fk', '=', userId).orderBy('changed_on', 'desc').limit(limit).execute(),
      this.db.selectFrom('slices').select(['id', 'slice_name', 'changed_on']).where('changed_by_fk', '=', userId).orderBy('changed_on', 'desc').limit(limit).execute(),
      this.db.selectFrom('dashboards').select(['id', 'dashboard_title', 'changed_on']).where('changed_by_fk', '=', userId).orderBy('changed_on', 'desc').limit(limit).execute(),
    ]);
    const rows: ActivityRow[] = [
      ...queries.map((q) => ({ action: 'run' as const, item_type: 'query' as const, item_id: q.id, item_title: (q.sql ?? '').replace(/\s+/g, ' ').trim().slice(0, 120) || q.tab_name || 'Query', time: new Date(q.changed_on) })),
      ...saved.map((s) => ({ action: 'edit' as const, item_type: 'saved_query' as const, item_id: s.id, item_title: s.label, time: new Date(s.changed_on) })),
      ...charts.map((c) => ({ action: 'edit' as const, item_type: 'slice' as const, item_id: c.id, item_title: c.slice_name, time: new Date(c.changed_on) })),
      ...dashboards.map((d) => ({ action: 'edit' as const, item_type: 'dashboard' as const, item_id: d.id, item_title: d.dashboard_title ?? '[ untitled dashboard ]', time: new Date(d.changed_on) })),
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
