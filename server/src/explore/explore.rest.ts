import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ExploreBootstrapQuerySchema, ExploreFormDataSchema, ExplorePermalinkSchema } from '@meridian/contracts';
import { baseUrl, route } from '../rest/rest';
import type { Services } from '../services';

const tags = ['Explore'];
const KeyParams = z.object({ key: z.string().min(1).max(100) });

/** /api/v1/explore/ (bootstrap), permalinks and the form data cache, as Superset's Explore APIs. */
export function registerExploreRest(app: FastifyInstance, services: Services): void {
  const { explore } = services;
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/explore/',
      summary: 'Explore bootstrap: form data, dataset and slice',
      tags,
      query: ExploreBootstrapQuerySchema,
    },
    ({ actor, query }) => explore.bootstrap(actor, query),
  );
  route(app, { method: 'POST', url: '/api/v1/explore/permalink', permission: ['can_write', 'ExplorePermalinkRestApi'], summary: 'Create an Explore permalink', tags, body: ExplorePermalinkSchema, status: 201 }, ({ actor, body, req }) =>
    explore.createPermalink(actor, body, baseUrl(req as never)),
  );
  route(app, { method: 'GET', url: '/api/v1/explore/permalink/:key', permission: ['can_read', 'ExplorePermalinkRestApi'], summary: 'Read an Explore permalink', tags, params: KeyParams }, ({ actor, params }) => explore.permalink(actor, params.key));
  route(app, { method: 'POST', url: '/api/v1/explore/form_data', permission: ['can_write', 'ExploreFormDataRestApi'], summary: 'Cache Explore form data', tags, body: ExploreFormDataSchema, status: 201 }, async ({ actor, body }) => ({
    key: await explore.createFormData(actor, body),
  }));
  route(app, { method: 'PUT', url: '/api/v1/explore/form_data/:key', permission: ['can_write', 'ExploreFormDataRestApi'], summary: 'Update cached Explore form data', tags, params: KeyParams, body: ExploreFormDataSchema }, async ({ actor, params, body }) => {
    // Superset's frontend reads `message`; its OpenAPI document (and scripts written to it) read `key`.
    const key = await explore.updateFormData(actor, params.key, body);
    return { message: key, key };
  });
  route(app, { method: 'GET', url: '/api/v1/explore/form_data/:key', permission: ['can_read', 'ExploreFormDataRestApi'], summary: 'Read cached Explore form data', tags, params: KeyParams }, async ({ actor, params }) => ({
    form_data: await explore.getFormData(actor, params.key),
  }));
  route(app, { method: 'DELETE', url: '/api/v1/explore/form_data/:key', permission: ['can_write', 'ExploreFormDataRestApi'], summary: 'Delete cached Explore form data', tags, params: KeyParams }, async ({ actor, params }) => {
    await explore.deleteFormData(actor, params.key);
    return { message: 'Deleted successfully' };
  });
}
