import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CssTemplateCreateSchema, CssTemplateUpdateSchema } from '@meridian/contracts';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';
import { registerRelated } from '../rest/related';
import { CSS_TEMPLATE_ORDER_COLUMNS } from './css-template.service';

const tags = ['CSS Templates'];
const ListParams = z.object({ q: z.unknown().optional() });
const DeleteIds = z.object({ q: z.array(z.coerce.number().int()) });
const fields = ({ template_name, css }: { template_name: string; css: string }) => ({ template_name, css });

const INFO: InfoSpec = {
  view: 'CssTemplate',
  title: 'CSS Template',
  add: CssTemplateCreateSchema,
  edit: CssTemplateUpdateSchema,
  filters: { template_name: ['ct', 'eq', 'sw', 'ew'], created_by: ['rel_o_m'], changed_by: ['rel_o_m'] },
  permissions: ['can_read', 'can_write'],
};

/** /api/v1/css_template/ as Superset's CssTemplateRestApi. */
export function registerCssTemplateRest(app: FastifyInstance, services: Services): void {
  const { cssTemplates } = services;
  registerRelated(app, services, { resource: 'css_template', view: 'CssTemplate', tags, users: ['created_by', 'changed_by'] });
  route(app, { method: 'GET', url: '/api/v1/css_template/', list: { title: 'List Css Template', orderColumns: CSS_TEMPLATE_ORDER_COLUMNS }, permission: ['can_read', 'CssTemplate'], summary: 'List CSS templates', tags, query: ListParams }, ({ actor, query }) => cssTemplates.list(actor, parseListQuery(query.q)));
  route(app, { method: 'GET', url: '/api/v1/css_template/_info', permission: ['can_read', 'CssTemplate'], summary: 'Fields, filters and permissions of CSS templates', tags, query: ListParams, rison: true }, ({ actor, query }) =>
    infoAnswer(INFO, actor!, query.q),
  );
  route(app, { method: 'GET', url: '/api/v1/css_template/:pk', item: { title: 'Show Css Template' }, permission: ['can_read', 'CssTemplate'], summary: 'Get a CSS template', tags, params: PkParams }, async ({ actor, params }) => ({ id: params.pk, result: await cssTemplates.get(actor, params.pk) }));
  route(app, { method: 'POST', url: '/api/v1/css_template/', modelRestApi: true, permission: ['can_write', 'CssTemplate'], summary: 'Create a CSS template', tags, body: CssTemplateCreateSchema, status: 201 }, async ({ actor, body }) => {
    const created = await cssTemplates.create(actor, body);
    return { id: created.id, result: fields(created) };
  });
  route(app, { method: 'PUT', url: '/api/v1/css_template/:pk', modelRestApi: true, permission: ['can_write', 'CssTemplate'], summary: 'Update a CSS template', tags, params: PkParams, body: CssTemplateUpdateSchema }, async ({ actor, params, body }) => {
    const updated = await cssTemplates.update(actor, params.pk, body);
    return { id: updated.id, result: fields(updated) };
  });
  route(app, { method: 'DELETE', url: '/api/v1/css_template/:pk', permission: ['can_write', 'CssTemplate'], summary: 'Delete a CSS template', tags, params: PkParams }, async ({ actor, params }) => {
    await cssTemplates.delete(actor, [params.pk]);
    return { message: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/css_template/', permission: ['can_write', 'CssTemplate'], summary: 'Delete CSS templates in bulk (q=!(1,2))', tags, rison: true, query: DeleteIds }, async ({ actor, query }) => {
    const n = await cssTemplates.delete(actor, query.q);
    return { message: `Deleted ${n} css template${n === 1 ? '' : 's'}` };
  });
}
