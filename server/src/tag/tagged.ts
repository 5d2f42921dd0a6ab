import { TAG_TYPES, type TagRef } from '@meridian/contracts';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { MetadataDb } from '../db/database';
import { likePattern } from '../common/list-query';
import { Unprocessable } from '../errors/domain-errors';

/** Superset's ObjectType: what a tag can be put on, by its stored name and its number in the API's paths. */
export const TAGGABLE = { query: 1, chart: 2, dashboard: 3, dataset: 4 } as const;
export type TaggableType = keyof typeof TAGGABLE;

export type { TagRef };

/** The tags of some objects of one type, by object id (custom tags and the rest alike). */
export async function tagsByObject(db: MetadataDb, type: TaggableType, ids: number[]): Promise<Map<number, TagRef[]>> {
  const out = new Map<number, TagRef[]>();
  if (!ids.length) return out;
  const rows = await db
    .selectFrom('tagged_object as o')
    .innerJoin('tag as t', 't.id', 'o.tag_id')
    .select(['o.object_id', 't.id', 't.name', 't.type'])
    .where('o.object_type', '=', type)
    .where('o.object_id', 'in', [...new Set(ids)])
    .orderBy('t.name')
    .execute();
  for (const r of rows) out.set(r.object_id, [...(out.get(r.object_id) ?? []), { id: r.id, name: r.name, type: r.type }]);
  return out;
}

/**
 * The list filters on tags (Superset's ChartTagNameFilter / ChartTagIdFilter and their dashboard and saved
 * query twins): objects holding a tag whose name contains the value, or the tag of that id.
 */
export function tagFilters(type: TaggableType, idColumn: string, names: { byName: string; byId: string }) {
  const holding = (condition: Expression<SqlBool>) =>
    sql<boolean>`exists (select 1 from tagged_object o join tag t on t.id = o.tag_id where o.object_type = ${type} and o.object_id = ${sql.ref(idColumn)} and ${condition})`;
  return {
    [names.byName]: (_eb: unknown, value: unknown) => holding(sql<boolean>`t.name ilike ${likePattern(value)}`),
    [names.byId]: (_eb: unknown, value: unknown) => holding(sql<boolean>`t.id = ${Number(value)}`),
  };
}

/** Sets an object's custom tags (type 1) to these tag ids, as a PUT with `tags` does in Superset; unknown ids are a 422. */
export async function setCustomTags(db: MetadataDb, type: TaggableType, objectId: number, tagIds: number[], userId: number): Promise<void> {
  const known = tagIds.length ? new Set((await db.selectFrom('tag').select('id').where('id', 'in', tagIds).execute()).map((t) => t.id)) : new Set<number>();
  const missing = tagIds.filter((id) => !known.has(id));
  if (missing.length) throw new Unprocessable({ tags: [`Tag(s) not found: ${missing.join(', ')}`] });
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('tagged_object')
      .where('object_type', '=', type)
      .where('object_id', '=', objectId)
      .where('tag_id', 'in', trx.selectFrom('tag').select('id').where('type', '=', TAG_TYPES.custom))
      .execute();
    const ids = [...new Set(tagIds)];
    if (ids.length) await trx.insertInto('tagged_object').values(ids.map((tag_id) => ({ tag_id, object_id: objectId, object_type: type, created_by_fk: userId }))).onConflict((oc) => oc.columns(['tag_id', 'object_id', 'object_type']).doNothing()).execute();
  });
}
