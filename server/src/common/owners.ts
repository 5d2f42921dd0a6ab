import { sql } from 'kysely';
import type { MetadataDb } from '../db/database';

export interface Person {
  id: number;
  first_name: string;
  last_name: string;
}

/** Where each kind of object keeps its owners: the link table and its column naming the object. */
const OWNER_LINKS = {
  chart: ['slice_user', 'slice_id'],
  dashboard: ['dashboard_user', 'dashboard_id'],
  dataset: ['sqlatable_user', 'table_id'],
  report: ['report_schedule_user', 'report_schedule_id'],
} as const;

/** The owners of each of `ids` (one query), by object id, each list ordered by user id. */
export async function ownersByObject(db: MetadataDb, kind: keyof typeof OWNER_LINKS, ids: number[]): Promise<Map<number, Person[]>> {
  const out = new Map<number, Person[]>();
  if (!ids.length) return out;
  const [table, column] = OWNER_LINKS[kind];
  const rows = await db
    .selectFrom(`${table} as link` as 'slice_user as link')
    .innerJoin('ab_user as u', 'u.id', 'link.user_id')
    .select([sql<number>`${sql.ref(`link.${column}`)}`.as('object_id'), 'u.id', 'u.first_name', 'u.last_name'])
    .where(sql.ref(`link.${column}`), 'in', ids)
    .orderBy('u.id')
    .execute();
  for (const r of rows) out.set(r.object_id, [...(out.get(r.object_id) ?? []), { id: r.id, first_name: r.first_name, last_name: r.last_name }]);
  return out;
}
