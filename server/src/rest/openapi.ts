import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { documentedRoutes } from './rest';

function schemaOf(type: z.ZodType | undefined): unknown {
  if (!type) return undefined;
  try {
    return z.toJSONSchema(type, { io: 'input', unrepresentable: 'any' });
  } catch {
    return { type: 'object' };
  }
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
      tags: doc.tags,
      parameters: params,
      ...(doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(doc.body) } } } } : {}),
      responses: {
        [String(doc.status ?? 200)]: { description: 'Success' },
        400: { description: 'Bad request' },
        ...(doc.public ? {} : { 401: { description: 'Unauthorized' }, 403: { description: 'Forbidden' } }),
        404: { description: 'Not found' },
        422: { description: 'Could not process entity' },
        500: { description: 'Fatal error' },
      },
      ...(doc.public ? { security: [] } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Meridian', version: 'v1', description: 'Superset-compatible REST API of Meridian.' },
    components: { securitySchemes: { jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    security: [{ jwt: [] }],
    paths,
  };
}

/** Serves the document at /api/v1/_openapi and Swagger UI (bundled, no CDN) at /swagger/v1. */
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
<script>window.ui = SwaggerUIBundle({ url: '/api/v1/_openapi', dom_id: '#ui' });</script></body></html>`),
  );
}
