import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { TableSchemaCreateSchema, TabStateCreateSchema, TabStateUpdateSchema } from '@meridian/contracts';
import { route } from '../rest/rest';
import type { Services } from '../services';
import { formBody, objectField } from './form-body';

const tags = ['SQL Lab tabs'];
const IdParams = z.object({ id: z.coerce.number().int() });

/** Superset answers these legacy views with bare JSON values (`"OK"`, an id). */
function jsonValue(reply: FastifyReply, value: unknown): string {
  reply.type('application/json; charset=utf-8');
  return JSON.stringify(value);
}

/** `/tabstateview/` and `/tableschemaview/` exactly as spec 01 §7 (form fields JSON-encoded, or a JSON body). */
export function registerTabStateRest(app: FastifyInstance, services: Services): void {
  const { tabStates } = services;
  route(app, { method: 'POST', url: '/tabstateview/', permission: ['can_sqllab', 'Superset'], summary: 'Create a tab state from a query editor (queryEditor)', tags }, async ({ actor, req }) => {
    const editor = TabStateCreateSchema.parse(objectField(formBody(req).queryEditor) ?? {});
    return { id: await tabStates.create(actor, editor) };
  });
  route(app, { method: 'GET', url: '/tabstateview/:id', permission: ['can_sqllab', 'Superset'], summary: 'Get a tab state with its tables and latest query', tags, params: IdParams }, ({ actor, params }) =>
    tabStates.get(actor, params.id),
  );
  route(app, { method: 'PUT', url: '/tabstateview/:id', permission: ['can_sqllab', 'Superset'], summary: 'Update a tab state (undefined fields omitted)', tags, params: IdParams }, async ({ actor, params, req, reply }) => {
    await tabStates.update(actor, params.id, TabStateUpdateSchema.parse(formBody(req)));
    return jsonValue(reply, params.id);
  });
  route(app, { method: 'POST', url: '/tabstateview/:id/activate', permission: ['can_sqllab', 'Superset'], summary: 'Make a tab the active one', tags, params: IdParams }, async ({ actor, params, reply }) => {
    await tabStates.activate(actor, params.id);
    return jsonValue(reply, params.id);
  });
  route(app, { method: 'POST', url: '/tabstateview/:id/migrate_query', permission: ['can_sqllab', 'Superset'], summary: 'Move a query into a tab (queryId)', tags, params: IdParams }, async ({ actor, params, req, reply }) => {
    const { queryId } = z.object({ queryId: z.union([z.string(), z.number()]).transform(String) }).parse(formBody(req));
    await tabStates.migrateQuery(actor, params.id, queryId);
    return jsonValue(reply, params.id);
  });
  route(app, { method: 'DELETE', url: '/tabstateview/:id', permission: ['can_sqllab', 'Superset'], summary: 'Delete a tab state', tags, params: IdParams }, async ({ actor, params, reply }) => {
    await tabStates.delete(actor, params.id);
    return jsonValue(reply, 'OK');
  });
  route(
    app,
    { method: 'DELETE', url: '/tabstateview/:id/query/:client_id', permission: ['can_sqllab', 'Superset'], summary: 'Delete a query of a tab', tags, params: IdParams.extend({ client_id: z.string() }) },
    async ({ actor, params, reply }) => {
      await tabStates.deleteQuery(actor, params.id, params.client_id);
      return jsonValue(reply, 'OK');
    },
  );
  route(app, { method: 'POST', url: '/tableschemaview/', permission: ['can_sqllab', 'Superset'], summary: 'Add a table to a tab (table)', tags }, async ({ actor, req }) => {
    const table = TableSchemaCreateSchema.parse(objectField(formBody(req).table) ?? {});
    return { id: await tabStates.addTable(actor, table) };
  });
  route(app, { method: 'POST', url: '/tableschemaview/:id/expanded', permission: ['can_sqllab', 'Superset'], summary: 'Expand or collapse a table of a tab', tags, params: IdParams }, async ({ actor, params, req }) => {
    const { expanded } = z.object({ expanded: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]) }).parse(formBody(req));
    await tabStates.setTableExpanded(actor, params.id, expanded);
    return { id: params.id, expanded };
  });
  route(app, { method: 'DELETE', url: '/tableschemaview/:id', permission: ['can_sqllab', 'Superset'], summary: 'Remove a table from a tab', tags, params: IdParams }, async ({ actor, params, reply }) => {
    await tabStates.deleteTable(actor, params.id);
    return jsonValue(reply, 'OK');
  });
}
