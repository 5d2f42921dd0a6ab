import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { documentedRoutes, type RouteDoc } from './rest';

function schemaOf(type: z.ZodType | undefined): unknown {
  if (!type) return undefined;
  try {
    return z.toJSONSchema(type, { io: 'input', unrepresentable: 'any' });
  } catch {
    return { type: 'object' };
  }
}

const json = (schema: unknown) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Superset's envelopes: list and item answers, and the two error shapes (both may come together). */
const SCHEMAS = {
  ListResponse: {
    type: 'object',
    required: ['count', 'ids', 'result'],
    properties: {
      count: { type: 'integer', description: 'Rows matching the filters, all pages.' },
      ids: { type: 'array', items: { type: ['integer', 'string'] }, description: "This page's primary keys." },
      result: { type: 'array', items: { type: 'object' } },
      list_columns: { type: 'array', items: { type: 'string' } },
      order_columns: { type: 'array', items: { type: 'string' } },
      label_columns: { type: 'object', additionalProperties: { type: 'string' } },
      description_columns: { type: 'object', additionalProperties: { type: 'string' } },
      list_title: { type: 'string' },
    },
  },
  ItemResponse: {
    type: 'object',
    required: ['id', 'result'],
    properties: {
      id: { type: ['integer', 'string'] },
      result: { type: 'object' },
      // Flask-AppBuilder's show metadata, on the items its get_headless answers (narrowed by q's columns and keys).
      show_columns: { type: 'array', items: { type: 'string' } },
      show_title: { type: 'string' },
      label_columns: { type: 'object', additionalProperties: { type: 'string' } },
      description_columns: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
  MessageResponse: { type: 'object', required: ['message'], properties: { message: { description: 'A sentence, or a field -> messages map for invalid input.', type: ['string', 'object'] } } },
  SupersetError: {
    type: 'object',
    required: ['message', 'error_type', 'level'],
    properties: {
      message: { type: 'string' },
      error_type: { type: 'string', examples: ['GENERIC_DB_ENGINE_ERROR'] },
      level: { type: 'string', enum: ['info', 'warning', 'error'] },
      extra: { type: ['object', 'null'] },
    },
  },
  ErrorsResponse: { type: 'object', required: ['errors'], properties: { errors: { type: 'array', items: ref('SupersetError') }, message: { type: 'string' } } },
  Error: { anyOf: [ref('MessageResponse'), ref('ErrorsResponse')] },
};

const ERROR_RESPONSES = {
  400: { description: 'Bad request', content: json(ref('Error')) },
  401: { description: 'Unauthorized', content: json(ref('MessageResponse')) },
  403: { description: 'Forbidden', content: json(ref('MessageResponse')) },
  404: { description: 'Not found', content: json(ref('MessageResponse')) },
  422: { description: 'Could not process entity', content: json(ref('Error')) },
  500: { description: 'Fatal error', content: json(ref('MessageResponse')) },
};

/** The success answer of a route: Superset's list and item envelopes where the route is one. */
function successOf(doc: RouteDoc): Record<string, unknown> {
  if (doc.list) return { description: 'A page of the list', content: json(ref('ListResponse')) };
  if (doc.method === 'GET' && doc.url.endsWith('/:pk')) return { description: 'The item', content: json(ref('ItemResponse')) };
  return { description: 'Success' };
}

/** The OpenAPI 3.1 document, generated from the zod schemas every REST route is declared with. */
export function buildOpenApi(app: FastifyInstance) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const doc of documentedRoutes(app)) {
    const path = doc.url.replace(/:(\w+)/g, '{$1}');
    const params = [...doc.url.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: m[1] === 'pk' ? 'integer' : 'string' } }));
    const query = schemaOf(doc.query) as { properties?: Record<string, unknown>; required?: string[] } | undefined;
    for (const [name, schema] of Object.entries(query?.properties ?? {})) {
      params.push({
        name,
        in: 'query',
        required: query?.required?.includes(name) ?? false,
        schema: (doc.rison && name === 'q' ? { type: 'string', description: 'rison-encoded' } : schema) as any,
      });
    }
    (paths[path] ??= {})[doc.method.toLowerCase()] = {
      summary: doc.summary,
      ...(doc.permission ? { description: `Needs \`${doc.permission[0]}\` on \`${doc.permission[1]}\` (403 otherwise, checked before the input).` } : {}),
      tags: doc.tags,
      parameters: params,
      ...(doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(doc.body) } } } } : {}),
      responses: {
        [String(doc.status ?? 200)]: successOf(doc),
        400: ERROR_RESPONSES[400],
        ...(doc.public ? {} : { 401: ERROR_RESPONSES[401], 403: ERROR_RESPONSES[403] }),
        404: ERROR_RESPONSES[404],
        422: ERROR_RESPONSES[422],
        500: ERROR_RESPONSES[500],
      },
      ...(doc.public ? { security: [] } : {}),
    };
  }
  const health = { summary: 'Liveness: OK while the process serves requests', tags: ['Health'], security: [], responses: { 200: { description: 'OK', content: { 'text/plain': { schema: { type: 'string', const: 'OK' } } } } } };
  paths['/health'] = { get: health };
  paths['/healthcheck'] = { get: { ...health, summary: 'Liveness (Superset\'s path)' } };
  return {
    openapi: '3.1.0',
    info: { title: 'Meridian', version: 'v1', description: 'Superset-compatible REST API of Meridian.' },
    components: { schemas: SCHEMAS, securitySchemes: { jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    security: [{ jwt: [] }],
    paths,
  };
}

/**
 * Serves the document at /api/v1/_openapi and Swagger UI (bundled, no CDN) at /swagger/v1; the
 * online validator badge is off (`validatorUrl: null`), as it would send the document to swagger.io.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.get('/api/v1/_openapi', async () => buildOpenApi(app));
  const require = createRequire(import.meta.url);
  const uiDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  const { default: fastifyStatic } = await import('@fastify/static');
  await app.register(fastifyStatic, { root: uiDir, prefix: '/swagger/assets/', decorateReply: false });
  app.get('/swagger/v1', async (_req, reply) =>
    reply.type('text/html').send(`<!doctype html><html><head><meta charset="utf-8"><title>Meridian API</title>
<link rel="stylesheet" href="/swagger/assets/swagger-ui.css"></head><body><div id="ui"></div>
<script src="/swagger/assets/swagger-ui-bundle.js"></script>
<script src="/swagger/v1/init.js"></script></body></html>`),
  );
  // A script of its own, not inline: pages run under a Content-Security-Policy that allows only this origin's scripts.
  app.get('/swagger/v1/init.js', async (_req, reply) =>
    reply.type('text/javascript').send(`window.ui = SwaggerUIBundle({ url: '/api/v1/_openapi', dom_id: '#ui', validatorUrl: null });`),
  );
}
