import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedRoutes } from '../../server/src/rest/rest';
import { appRouter } from '../../server/src/trpc/app-router';
import { startTestApp, type TestApp } from '../helpers/app';

// Routes anyone may call without signing in: logging in, refreshing a token, logging out.
const PUBLIC_REST = new Set(['POST /api/v1/security/login', 'POST /api/v1/security/refresh', 'POST /login/', 'POST /logout/']);
// Routes any signed-in user may call whatever their roles: Superset's /me/ and the CSRF token, a
// shared SQL Lab link (anyone it was sent to opens it), the time range calculator (no data), the menu
// (it lists only what the caller's roles reach), the serving domains, avatars (none are kept) and the advanced
// data types' conversion (no data read).
const SIGNED_IN_REST = new Set(['GET /api/v1/me/', 'GET /api/v1/me/roles/', 'GET /api/v1/security/csrf_token/', 'GET /kv/:id', 'GET /api/v1/time_range/', 'GET /api/v1/menu/', 'GET /api/v1/available_domains/', 'GET /api/v1/user/:user_id/avatar.png', 'GET /api/v1/advanced_data_type/types', 'GET /api/v1/advanced_data_type/convert']);
// The client's first call: the signed-out login page needs the feature flags too.
const PUBLIC_TRPC = new Set(['security.bootstrap']);

/** A concrete URL for a documented route: `:pk`-like params become 1, others a plausible word. */
function concrete(url: string): string {
  return url.replace(/:(\w+)/g, (_m, name: string) => (/pk|id$/i.test(name) ? '1' : 'x'));
}

interface TrpcAnswer {
  status: number;
  code: string | undefined;
}

describe('auth sweep: every REST route and tRPC procedure refuses anonymous and permission-less callers', () => {
  let t: TestApp;
  let publicToken: string;
  let routes: { method: string; url: string; key: string; hasBody: boolean }[];
  const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>).map(([path, p]) => ({ path, type: p._def.type }));

  beforeAll(async () => {
    t = await startTestApp();
    publicToken = await t.userWithRoles('only_public', ['Public']);
    routes = documentedRoutes(t.app).map((r) => ({ method: r.method, url: concrete(r.url), key: `${r.method} ${r.url}`, hasBody: !!r.body }));
  });
  afterAll(async () => t?.close());

  const rest = (method: string, url: string, token?: string, body?: unknown) => {
    let req = t.http[method.toLowerCase() as 'get'](url);
    if (token) req = req.set('Authorization', `Bearer ${token}`);
    return method === 'GET' || method === 'DELETE' ? req : req.send((body ?? {}) as object);
  };

  const trpc = async (path: string, type: string, input: unknown, token?: string): Promise<TrpcAnswer> => {
    const auth = token ? { Authorization: `Bearer ${token}` } : {};
    const res =
      type === 'query'
        ? await t.http.get(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`).set(auth)
        : await t.http.post(`/trpc/${path}`).set(auth).send(input as object);
    return { status: res.status, code: res.body?.error?.data?.code };
  };

  it('finds the routes and procedures it sweeps', () => {
    expect(routes.length).toBeGreaterThan(60);
    expect(procedures.length).toBeGreaterThan(60);
    for (const key of [...PUBLIC_REST, ...SIGNED_IN_REST]) expect(routes.map((r) => r.key)).toContain(key);
    for (const path of PUBLIC_TRPC) expect(procedures.map((p) => p.path)).toContain(path);
  });

  it('answers 401 to an anonymous caller on every REST route but the public ones', async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      if (PUBLIC_REST.has(r.key)) continue;
      const res = await rest(r.method, r.url);
      if (res.status !== 401) wrong.push(`${r.key} -> ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers 403 {"message":"Forbidden"} to a Public-role user on every REST route that needs a permission', async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      if (PUBLIC_REST.has(r.key) || SIGNED_IN_REST.has(r.key)) continue;
      const res = await rest(r.method, r.url, publicToken);
      if (res.status !== 403 || JSON.stringify(res.body) !== '{"message":"Forbidden"}') wrong.push(`${r.key} -> ${res.status} ${res.text.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers 403, not 400, to a Public-role user sending an invalid body, as Superset checks permissions first', async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      if (PUBLIC_REST.has(r.key) || SIGNED_IN_REST.has(r.key) || !r.hasBody) continue;
      const res = await rest(r.method, r.url, publicToken, { this_field: 'does not exist', page_size: 'not a number' });
      if (res.status !== 403) wrong.push(`${r.key} -> ${res.status}`);
    }
    expect(wrong).toEqual([]);
    // The same body from the admin is refused as invalid: the sweep's body is truly invalid.
    const admin = await t.token();
    const invalid = await rest('POST', '/api/v1/security/users/', admin, { this_field: 'does not exist' });
    expect(invalid.status).toBe(400);
  });

  it('answers a signed-in user without roles on the signed-in-only REST routes', async () => {
    for (const key of SIGNED_IN_REST) {
      const [method, url] = key.split(' ');
      // /kv/1 does not exist and no avatar is kept: 404 is an answer, not a refusal; so is 400 for a conversion asked without values.
      expect((await rest(method, concrete(url), publicToken)).status, key).toBe(url === '/kv/:id' || url.endsWith('avatar.png') ? 404 : url.endsWith('/convert') ? 400 : 200);
    }
  });

  it('answers UNAUTHORIZED over /trpc to an anonymous caller on every procedure but the public ones', async () => {
    const wrong: string[] = [];
    for (const p of procedures) {
      if (PUBLIC_TRPC.has(p.path)) continue;
      const res = await trpc(p.path, p.type, {});
      if (res.status !== 401 || res.code !== 'UNAUTHORIZED') wrong.push(`${p.path} -> ${res.status} ${res.code}`);
    }
    expect(wrong).toEqual([]);
    expect((await trpc('security.bootstrap', 'query', undefined)).status).toBe(200);
  });

  it('answers FORBIDDEN over /trpc to a Public-role user on every procedure, even with invalid input', async () => {
    const wrong: string[] = [];
    for (const p of procedures) {
      if (PUBLIC_TRPC.has(p.path)) continue;
      const res = await trpc(p.path, p.type, { this_field: 'does not exist', id: 'not a number' }, publicToken);
      if (res.status !== 403 || res.code !== 'FORBIDDEN') wrong.push(`${p.path} -> ${res.status} ${res.code}`);
    }
    expect(wrong).toEqual([]);
  });
});
