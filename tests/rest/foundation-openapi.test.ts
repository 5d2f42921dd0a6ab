import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';

type Schema = { $ref?: string; required?: string[]; anyOf?: Schema[] };
type Operation = { responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>; security?: unknown[] };

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    doc = (await t.http.get('/api/v1/_openapi')).body;
  });
  afterAll(async () => t?.close());

  const operations = () => Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
  const resolve = (schema: Schema): Schema => (schema.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema);
  /** The top-level keys an answer must have for a schema (any one branch of an anyOf). */
  const conforms = (body: Record<string, unknown>, schema: Schema): boolean => {
    const s = resolve(schema);
    if (s.anyOf) return s.anyOf.some((branch) => conforms(body, branch));
    return (s.required ?? []).every((key) => key in body);
  };
  const schemaAt = (path: string, method: string, status: number) => doc.paths[path][method].responses[String(status)].content!['application/json'].schema;

  it('gives every operation a success response and JSON error responses, and every $ref resolves', () => {
    expect(operations().length).toBeGreaterThan(40);
    for (const { path, method, op } of operations()) {
      const statuses = Object.keys(op.responses);
      expect(statuses.some((s) => s.startsWith('2')), `${method} ${path}`).toBe(true);
      if (path === '/health' || path === '/healthcheck') continue;
      const expected = op.security?.length === 0 ? ['400', '404', '422'] : ['400', '401', '403', '404', '422'];
      for (const status of expected) expect(op.responses[status]?.content?.['application/json']?.schema, `${method} ${path} ${status}`).toBeDefined();
    }
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) expect(doc.components.schemas, ref).toHaveProperty(ref.slice(22, -1));
  });

  it('documents list and item answers with Superset envelopes, and /health', () => {
    for (const path of ['/api/v1/security/users/', '/api/v1/security/roles/', '/api/v1/database/']) {
      expect(schemaAt(path, 'get', 200), path).toEqual({ $ref: '#/components/schemas/ListResponse' });
    }
    for (const path of ['/api/v1/security/users/{pk}', '/api/v1/chart/{pk}', '/api/v1/dataset/{pk}']) {
      expect(schemaAt(path, 'get', 200), path).toEqual({ $ref: '#/components/schemas/ItemResponse' });
    }
    expect(doc.components.schemas.ListResponse.required).toEqual(['count', 'ids', 'result']);
    expect(doc.components.schemas.ItemResponse.required).toEqual(['id', 'result']);
    expect(doc.paths['/health'].get.responses['200'].content!['text/plain'].schema).toMatchObject({ const: 'OK' });
    expect(doc.paths['/health'].get.security).toEqual([]);
  });

  it('describes what the server really answers: list, item, 401, 403, 404 and 400', async () => {
    const get = (path: string, token?: string) => (token ? t.http.get(path).set('Authorization', `Bearer ${token}`) : t.http.get(path));
    const list = await get('/api/v1/security/users/', admin);
    expect(list.status).toBe(200);
    expect(conforms(list.body, schemaAt('/api/v1/security/users/', 'get', 200))).toBe(true);
    const item = await get(`/api/v1/security/users/${list.body.ids[0]}`, admin);
    expect(conforms(item.body, schemaAt('/api/v1/security/users/{pk}', 'get', 200))).toBe(true);

    const anonymous = await get('/api/v1/security/users/');
    expect(anonymous.status).toBe(401);
    expect(conforms(anonymous.body, schemaAt('/api/v1/security/users/', 'get', 401))).toBe(true);
    const gamma = await t.userWithRoles('openapi_gamma', ['Gamma']);
    const forbidden = await get('/api/v1/security/users/', gamma);
    expect(forbidden.status).toBe(403);
    expect(conforms(forbidden.body, schemaAt('/api/v1/security/users/', 'get', 403))).toBe(true);
    const missing = await get('/api/v1/security/users/999999', admin);
    expect(missing.status).toBe(404);
    expect(conforms(missing.body, schemaAt('/api/v1/security/users/{pk}', 'get', 404))).toBe(true);
    const bad = await get('/api/v1/security/users/?q=(page:', admin);
    expect(bad.status).toBe(400);
    expect(conforms(bad.body, schemaAt('/api/v1/security/users/', 'get', 400))).toBe(true);
    // An empty object conforms to nothing: the check can fail.
    expect(conforms({}, schemaAt('/api/v1/security/users/', 'get', 400))).toBe(false);
  });
});
