import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { registerRelated } from '../rest/related';
import { idList, parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';
import { TAG_ORDER_COLUMNS, taggableType } from './tag.service';

const tags = ['Tags'];
const ListParams = z.object({ q: z.unknown().optional() });
const ObjectsToTag = z.array(z.tuple([z.union([z.string(), z.number()]), z.coerce.number().int()]));
/** Superset's TagRestApi.post / put. */
const TagSchema = z.object({ name: z.string().trim().min(1).max(250), description: z.string().nullish(), objects_to_tag: ObjectsToTag.optional() });
const TagUpdateSchema = TagSchema.partial();
const BulkSchema = z.object({ tags: z.array(TagSchema) });
const ObjectParams = z.object({ object_type: z.string(), object_id: z.coerce.number().int() });
/** `{tags: [...]}` as documented, or `{properties: {tags: [...]}}` as Superset's own client posts. */
const TagObjectBody = z.union([z.object({ properties: z.object({ tags: z.array(z.string().min(1)) }) }), z.object({ tags: z.array(z.string().min(1)) })]);

const TAG_INFO: InfoSpec = { view: 'Tag', title: 'Tag', add: TagSchema, edit: TagUpdateSchema, filters: { name: ['ct', 'eq', 'sw'], type: ['eq', 'in'], created_by: ['rel_o_m'], changed_by: ['rel_o_m'], description: ['ct'] }, permissions: ['can_read', 'can_write'] };

const csv = (v: unknown) => (typeof v === 'string' && v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

/** /api/v1/tag/ as Superset's TagRestApi (TAGGING_SYSTEM). */
export function registerTagRest(app: FastifyInstance, services: Services): void {
  const { tags: svc } = services;
  route(app, { method: 'GET', url: '/api/v1/tag/', list: { title: 'List Tag', orderColumns: TAG_ORDER_COLUMNS }, permission: ['can_read', 'Tag'], summary: 'List tags', tags, query: ListParams }, ({ actor, query }) => svc.list(actor, parseListQuery(query.q)));
  route(app, { method: 'GET', url: '/api/v1/tag/_info', permission: ['can_read', 'Tag'], summary: "What can be added and filtered, and the caller's permissions on tags", tags, query: ListParams, rison: true }, ({ actor, query }) =>
    infoAnswer(TAG_INFO, actor!, query.q),
  );
  registerRelated(app, services, { resource: 'tag', view: 'Tag', tags, users: ['created_by', 'changed_by'] });
  route(app, { method: 'GET', url: '/api/v1/tag/favorite_status/', permission: ['can_read', 'Tag'], summary: 'Favourite status of tags (q=!(ids))', tags, query: ListParams, rison: true }, async ({ actor, query }) => ({
    result: await svc.favoriteStatus(actor, idList(query.q, 'tag')),
  }));
  route(
    app,
    { method: 'GET', url: '/api/v1/tag/get_objects/', permission: ['can_read', 'Tag'], summary: 'Objects holding any of the tags (tags=names, tagIds=ids, types=chart,dashboard,query)', tags, query: z.object({ tags: z.string().optional(), tagIds: z.string().optional(), types: z.string().optional() }) },
    async ({ actor, query }) => ({
      result: await svc.objects(actor, { tags: csv(query.tags), tagIds: csv(query.tagIds).map(Number).filter(Number.isInteger), types: csv(query.types).map(taggableType) }),
    }),
  );
  route(app, { method: 'POST', url: '/api/v1/tag/bulk_create', permission: ['can_write', 'Tag'], summary: 'Create tags and put them on objects', tags, body: BulkSchema }, async ({ actor, body }) => ({ result: await svc.bulkCreate(actor, body.tags) }));
  route(app, { method: 'POST', url: '/api/v1/tag/', permission: ['can_write', 'Tag'], summary: 'Create a tag, optionally on objects', tags, body: TagSchema, status: 201 }, ({ actor, body }) => svc.create(actor, body));
  route(app, { method: 'GET', url: '/api/v1/tag/:pk', item: { title: 'Show Tag' }, permission: ['can_read', 'Tag'], summary: 'Get a tag', tags, params: PkParams }, async ({ actor, params }) => ({ id: params.pk, result: await svc.get(actor, params.pk) }));
  route(app, { method: 'PUT', url: '/api/v1/tag/:pk', permission: ['can_write', 'Tag'], summary: 'Change a tag (objects_to_tag replaces its objects)', tags, params: PkParams, body: TagUpdateSchema }, ({ actor, params, body }) => svc.update(actor, params.pk, body));
  route(app, { method: 'DELETE', url: '/api/v1/tag/:pk', permission: ['can_write', 'Tag'], summary: 'Delete a tag', tags, params: PkParams }, async ({ actor, params }) => {
    await svc.delete(actor, [params.pk]);
    return { message: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/tag/', permission: ['can_write', 'Tag'], summary: 'Delete tags (q=!(ids))', tags, query: ListParams, rison: true }, async ({ actor, query }) => {
    const ids = idList(query.q, 'tag');
    await svc.delete(actor, ids);
    return { message: `Deleted ${ids.length} tag${ids.length === 1 ? '' : 's'}` };
  });
  route(app, { method: 'POST', url: '/api/v1/tag/:pk/favorites/', permission: ['can_read', 'Tag'], summary: 'Mark a tag as favourite', tags, params: PkParams }, async ({ actor, params }) => {
    await svc.setFavorite(actor, params.pk, true);
    return { result: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/tag/:pk/favorites/', permission: ['can_read', 'Tag'], summary: 'Unmark a favourite tag', tags, params: PkParams }, async ({ actor, params }) => {
    await svc.setFavorite(actor, params.pk, false);
    return { result: 'OK' };
  });
  route(app, { method: 'POST', url: '/api/v1/tag/:object_type/:object_id/', permission: ['can_write', 'Tag'], summary: 'Put tags (by name) on a chart, dashboard, saved query or dataset', tags, params: ObjectParams, body: TagObjectBody, unknown: 'exclude', status: 201 }, async ({ actor, params, body }) => {
    await svc.tagObject(actor, params.object_type, params.object_id, 'properties' in body ? body.properties.tags : body.tags);
    return { message: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/tag/:object_type/:object_id/:tag/', permission: ['can_write', 'Tag'], summary: 'Take a tag (by name) off an object', tags, params: ObjectParams.extend({ tag: z.string() }) }, async ({ actor, params }) => {
    await svc.untagObject(actor, params.object_type, params.object_id, params.tag);
    return { message: 'OK' };
  });
}
