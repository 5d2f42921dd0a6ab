import { TAG_TYPES, type ListQuery, type ListResult } from '@meridian/contracts';
import type { ChartService } from '../chart/chart.service';
import { runListQuery } from '../common/list-query';
import type { DashboardService } from '../dashboard/dashboard.service';
import { auditPerson } from '../database/humanize';
import { humanizedDelta, pythonIsoformat } from '@meridian/contracts/rules/dates';
import type { DatasetService } from '../dataset/dataset.service';
import type { MetadataDb } from '../db/database';
import { Invalid, NotFound, Unprocessable } from '../errors/domain-errors';
import type { SavedQueryService } from '../saved-query/saved-query.service';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import { TAGGABLE, type TaggableType } from './tagged';

const COLUMNS = {
  id: 'tag.id',
  name: 'tag.name',
  type: 'tag.type',
  description: 'tag.description',
  created_on: 'tag.created_on',
  changed_on: 'tag.changed_on',
  changed_on_delta_humanized: 'tag.changed_on',
  created_by: 'tag.created_by_fk',
  changed_by: 'tag.changed_by_fk',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const TAG_ORDER_COLUMNS = Object.keys(COLUMNS);

/** The permission view of each taggable type. */
const VIEW: Record<TaggableType, string> = { query: 'SavedQuery', chart: 'Chart', dashboard: 'Dashboard', dataset: 'Dataset' };


/** `chart`, `2`, `saved_query` → the stored type name; anything else is a 400. */
export function taggableType(value: string | number): TaggableType {
  const v = String(value).toLowerCase();
  const byNumber = Object.entries(TAGGABLE).find(([, n]) => String(n) === v)?.[0];
  const type = byNumber ?? (v === 'saved_query' ? 'query' : v);
  if (!(type in TAGGABLE)) throw new Invalid({ object_type: [`Not a valid object type: ${value}`] });
  return type as TaggableType;
}

/** A tagged object as `get_objects/` answers it (Superset's TaggedObjectEntityResponseSchema). */
export interface TaggedObjectView {
  id: number;
  type: TaggableType;
  name: string;
  url: string;
  changed_on: string | null;
  created_by: { id: number; first_name: string; last_name: string } | null;
  creator: string;
  owners: Array<{ id: number; first_name: string; last_name: string }>;
  tags: Array<{ id: number; name: string; type: number }>;
}

/**
 * Tags (TAGGING_SYSTEM, Superset's TagRestApi): named labels put on charts, dashboards, saved queries and
 * datasets. `can_read` / `can_write` on Tag; tagging an object also needs write on the object's kind and
 * reading it; objects a caller may not read are never listed.
 */
export class TagService {
  constructor(private readonly deps: { db: MetadataDb; security: SecurityService; charts: ChartService; dashboards: DashboardService; savedQueries: SavedQueryService; datasets: DatasetService }) {}

  private base() {
    return this.deps.db
      .selectFrom('tag')
      .leftJoin('ab_user as cb', 'cb.id', 'tag.created_by_fk')
      .leftJoin('ab_user as mb', 'mb.id', 'tag.changed_by_fk')
      .selectAll('tag')
      .select(['cb.first_name as cb_first', 'cb.last_name as cb_last', 'mb.first_name as mb_first', 'mb.last_name as mb_last']);
  }

  private view(r: Awaited<ReturnType<ReturnType<TagService['base']>['executeTakeFirstOrThrow']>>) {
    return {
      id: r.id,
      name: r.name,
      type: r.type,
      description: r.description,
      created_on: pythonIsoformat(r.created_on),
      changed_on: pythonIsoformat(r.changed_on),
      changed_on_delta_humanized: humanizedDelta(r.changed_on),
      created_on_delta_humanized: humanizedDelta(r.created_on),
      created_by: auditPerson(r.created_by_fk, r.cb_first, r.cb_last),
      changed_by: auditPerson(r.changed_by_fk, r.mb_first, r.mb_last),
    };
  }

  async list(actor: Actor | null, query: ListQuery): Promise<ListResult<ReturnType<TagService['view']>>> {
    this.deps.security.require(actor, 'can_read', 'Tag');
    const { count, rows } = await runListQuery(this.base(), query, { columns: COLUMNS, idColumn: 'tag.id', defaultOrder: ['name', 'asc'] });
    const views = rows.map((r) => this.view(r as never));
    return { count, ids: views.map((v) => v.id), result: views };
  }

  async get(actor: Actor | null, id: number) {
    this.deps.security.require(actor, 'can_read', 'Tag');
    const row = await this.base().where('tag.id', '=', id).executeTakeFirst();
    if (!row) throw new NotFound();
    return this.view(row);
  }

  /** Reads an object the caller may see, or throws (404 when missing, 403 when out of reach). */
  private async object(actor: Actor, type: TaggableType, id: number): Promise<TaggedObjectView> {
    const base = { id, type, creator: '', owners: [] as TaggedObjectView['owners'], tags: [] as TaggedObjectView['tags'] };
    switch (type) {
      case 'chart': {
        const c = (await this.deps.charts.get(actor, id)) as { slice_name: string; url: string; changed_on?: string | null; created_by?: TaggedObjectView['created_by']; owners: TaggedObjectView['owners'] };
        return { ...base, name: c.slice_name, url: c.url, changed_on: c.changed_on ?? null, created_by: c.created_by ?? null, owners: c.owners };
      }
      case 'dashboard': {
        const d = (await this.deps.dashboards.get(actor, id)) as { dashboard_title: string; url: string; changed_on?: string | null; created_by?: TaggedObjectView['created_by']; owners: TaggedObjectView['owners'] };
        return { ...base, name: d.dashboard_title, url: d.url, changed_on: d.changed_on ?? null, created_by: d.created_by ?? null, owners: d.owners };
      }
      case 'query': {
        const q = await this.deps.savedQueries.get(actor, id);
        return { ...base, name: q.label, url: `/sqllab/?savedQueryId=${id}`, changed_on: (q as { changed_on?: string }).changed_on ?? null, created_by: (q as { created_by?: TaggedObjectView['created_by'] }).created_by ?? null };
      }
      case 'dataset': {
        const t = await this.deps.datasets.get(actor, id);
        return { ...base, name: t.table_name, url: `/explore/?datasource_type=table&datasource_id=${id}`, changed_on: (t as { changed_on?: string }).changed_on ?? null, created_by: null, owners: (t as { owners?: TaggedObjectView['owners'] }).owners ?? [] };
      }
    }
  }

  private async checkTaggable(actor: Actor, type: TaggableType, id: number): Promise<void> {
    this.deps.security.require(actor, 'can_write', VIEW[type]);
    await this.object(actor, type, id);
  }

  /** The tag of a name, created (custom) when missing. */
  private async tagNamed(actor: Actor, name: string, description?: string | null): Promise<number> {
    const found = await this.deps.db.selectFrom('tag').select('id').where('name', '=', name).executeTakeFirst();
    if (found) return found.id;
    return (await this.deps.db.insertInto('tag').values({ name, type: TAG_TYPES.custom, description: description ?? null, created_by_fk: actor.userId, changed_by_fk: actor.userId }).returning('id').executeTakeFirstOrThrow()).id;
  }

  private async link(actor: Actor, tagId: number, objects: Array<[TaggableType, number]>): Promise<void> {
    if (!objects.length) return;
    await this.deps.db
      .insertInto('tagged_object')
      .values(objects.map(([object_type, object_id]) => ({ tag_id: tagId, object_type, object_id, created_by_fk: actor.userId })))
      .onConflict((oc) => oc.columns(['tag_id', 'object_id', 'object_type']).doNothing())
      .execute();
  }

  private async checkedObjects(actor: Actor, objects: Array<[string | number, number]>): Promise<Array<[TaggableType, number]>> {
    const out: Array<[TaggableType, number]> = [];
    for (const [type, id] of objects) {
      const t = taggableType(type);
      await this.checkTaggable(actor, t, Number(id));
      out.push([t, Number(id)]);
    }
    return out;
  }

  async create(actor: Actor | null, input: { name: string; description?: string | null; objects_to_tag?: Array<[string | number, number]> }) {
    this.deps.security.require(actor, 'can_write', 'Tag');
    if (await this.deps.db.selectFrom('tag').select('id').where('name', '=', input.name).executeTakeFirst()) throw new Unprocessable({ name: ['A tag with this name already exists.'] });
    const objects = await this.checkedObjects(actor, input.objects_to_tag ?? []);
    const id = await this.tagNamed(actor, input.name, input.description);
    await this.link(actor, id, objects);
    return { id, result: { name: input.name, description: input.description ?? null, objects_to_tag: objects } };
  }

  async update(actor: Actor | null, id: number, input: { name?: string; description?: string | null; objects_to_tag?: Array<[string | number, number]> }) {
    this.deps.security.require(actor, 'can_write', 'Tag');
    await this.get(actor, id);
    if (input.name) {
      const clash = await this.deps.db.selectFrom('tag').select('id').where('name', '=', input.name).where('id', '!=', id).executeTakeFirst();
      if (clash) throw new Unprocessable({ name: ['A tag with this name already exists.'] });
    }
    const objects = input.objects_to_tag ? await this.checkedObjects(actor, input.objects_to_tag) : null;
    await this.deps.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('tag')
        .set({ ...(input.name ? { name: input.name } : {}), ...(input.description !== undefined ? { description: input.description } : {}), changed_by_fk: actor.userId, changed_on: new Date() })
        .where('id', '=', id)
        .execute();
      if (objects) {
        await trx.deleteFrom('tagged_object').where('tag_id', '=', id).execute();
        if (objects.length) await trx.insertInto('tagged_object').values(objects.map(([object_type, object_id]) => ({ tag_id: id, object_type, object_id, created_by_fk: actor.userId }))).execute();
      }
    });
    const tag = await this.get(actor, id);
    return { id, result: { name: tag.name, description: tag.description, ...(objects ? { objects_to_tag: objects } : {}) } };
  }

  async delete(actor: Actor | null, ids: number[]): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'Tag');
    const found = await this.deps.db.selectFrom('tag').select('id').where('id', 'in', ids.length ? ids : [-1]).execute();
    if (found.length !== new Set(ids).size) throw new NotFound();
    await this.deps.db.deleteFrom('tag').where('id', 'in', ids).execute();
  }

  /** `bulk_create`: each tag (created when missing) put on its objects; objects out of reach are skipped, not failed. */
  async bulkCreate(actor: Actor | null, tags: Array<{ name: string; description?: string | null; objects_to_tag?: Array<[string | number, number]> }>) {
    this.deps.security.require(actor, 'can_write', 'Tag');
    const tagged: Array<[string, number]> = [];
    const skipped: Array<[string, number]> = [];
    for (const tag of tags) {
      const id = await this.tagNamed(actor, tag.name, tag.description);
      for (const [type, objectId] of tag.objects_to_tag ?? []) {
        try {
          const t = taggableType(type);
          await this.checkTaggable(actor, t, Number(objectId));
          await this.link(actor, id, [[t, Number(objectId)]]);
          tagged.push([t, Number(objectId)]);
        } catch {
          skipped.push([String(type), Number(objectId)]);
        }
      }
    }
    return { objects_tagged: tagged, objects_skipped: skipped };
  }

  /** `POST tag/{object_type}/{object_id}/`: puts these tags (by name, created when missing) on one object. */
  async tagObject(actor: Actor | null, type: string | number, objectId: number, names: string[]): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'Tag');
    const t = taggableType(type);
    if (!names.length) throw new Invalid({ tags: ['Missing data for required field.'] });
    await this.checkTaggable(actor, t, objectId);
    for (const name of names) await this.link(actor, await this.tagNamed(actor, name), [[t, objectId]]);
  }

  /** `DELETE tag/{object_type}/{object_id}/{tag}/`: takes one tag (by name) off one object. */
  async untagObject(actor: Actor | null, type: string | number, objectId: number, name: string): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'Tag');
    const t = taggableType(type);
    await this.checkTaggable(actor, t, objectId);
    const tag = await this.deps.db.selectFrom('tag').select('id').where('name', '=', name).executeTakeFirst();
    const removed = tag ? await this.deps.db.deleteFrom('tagged_object').where('tag_id', '=', tag.id).where('object_type', '=', t).where('object_id', '=', objectId).executeTakeFirst() : null;
    if (!removed || Number(removed.numDeletedRows) === 0) throw new NotFound();
  }

  /** `get_objects/`: the objects holding any of these tags (by name or id), of these types, that the caller may read. */
  async objects(actor: Actor | null, opts: { tags: string[]; tagIds: number[]; types: TaggableType[] }): Promise<TaggedObjectView[]> {
    this.deps.security.require(actor, 'can_read', 'Tag');
    let q = this.deps.db.selectFrom('tagged_object as o').innerJoin('tag as t', 't.id', 'o.tag_id').select(['o.object_type', 'o.object_id']).distinct();
    if (opts.tags.length || opts.tagIds.length) q = q.where((eb) => eb.or([...(opts.tags.length ? [eb('t.name', 'in', opts.tags)] : []), ...(opts.tagIds.length ? [eb('t.id', 'in', opts.tagIds)] : [])]));
    if (opts.types.length) q = q.where('o.object_type', 'in', opts.types);
    const rows = await q.orderBy('o.object_type').orderBy('o.object_id').execute();
    const out: TaggedObjectView[] = [];
    for (const r of rows) {
      try {
        out.push(await this.object(actor, r.object_type as TaggableType, r.object_id));
      } catch {
        // Out of the caller's reach, or gone: not listed.
      }
    }
    const tagRows = out.length
      ? await this.deps.db.selectFrom('tagged_object as o').innerJoin('tag as t', 't.id', 'o.tag_id').select(['o.object_type', 'o.object_id', 't.id', 't.name', 't.type']).where('o.object_id', 'in', out.map((o) => o.id)).execute()
      : [];
    for (const o of out) o.tags = tagRows.filter((r) => r.object_type === o.type && r.object_id === o.id).map((r) => ({ id: r.id, name: r.name, type: r.type }));
    return out;
  }

  async favoriteStatus(actor: Actor | null, ids: number[]) {
    this.deps.security.require(actor, 'can_read', 'Tag');
    const favs = ids.length ? await this.deps.db.selectFrom('user_favorite_tag').select('tag_id').where('user_id', '=', actor.userId).where('tag_id', 'in', ids).execute() : [];
    const set = new Set(favs.map((f) => f.tag_id));
    return ids.map((id) => ({ id, value: set.has(id) }));
  }

  async setFavorite(actor: Actor | null, id: number, favorite: boolean): Promise<void> {
    this.deps.security.require(actor, 'can_read', 'Tag');
    await this.get(actor, id);
    if (favorite) await this.deps.db.insertInto('user_favorite_tag').values({ user_id: actor.userId, tag_id: id }).onConflict((oc) => oc.columns(['user_id', 'tag_id']).doNothing()).execute();
    else await this.deps.db.deleteFrom('user_favorite_tag').where('user_id', '=', actor.userId).where('tag_id', '=', id).execute();
  }
}
