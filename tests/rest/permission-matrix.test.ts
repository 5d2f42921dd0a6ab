import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedRoutes } from '../../server/src/rest/rest';
import { SEEDED_ROLES } from '../../server/src/security/permission-matrix';
import { appRouter } from '../../server/src/trpc/app-router';
import type { TrpcMeta } from '../../server/src/trpc/trpc';
import { startTestApp, type TestApp } from '../helpers/app';

/**
 * Issue 16, the permission matrix: every REST route and tRPC procedure that needs a permission, called by a user of
 * each built-in role (Admin, Alpha, Gamma, sql_lab, Public), is refused (403 / FORBIDDEN) exactly when the documented
 * matrix (server/src/security/permission-matrix.ts, printed as docs/roles.md) does not give that role the pair.
 * Calls name objects that do not exist and send invalid input, so an allowed call changes nothing; anonymous callers
 * are swept by foundation-auth-sweep.test.ts.
 */
const ROLES = ['Admin', 'Alpha', 'Gamma', 'sql_lab', 'Public'] as const;

const granted = (role: string, [permission, view]: readonly [string, string]) =>
  role === 'Admin' || SEEDED_ROLES[role].some(([p, v]) => p === permission && v === view);

/** A URL for a route naming nothing that exists: ids 999999999, other params a word. */
const concrete = (url: string) => url.replace(/:(\w+)/g, (_m, name: string) => (/pk|id$/i.test(name) ? '999999999' : 'nothing'));

describe('permission matrix: each role reaches exactly what docs/roles.md gives it, through both doors', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const actors: Record<string, Awaited<ReturnType<TestApp['services']['security']['actorFor']>>> = {};

  beforeAll(async () => {
    t = await startTestApp();
    for (const role of ROLES) {
      tokens[role] = await t.userWithRoles(`matrix_${role.toLowerCase()}`, [role]);
      const user = await t.services.db.selectFrom('ab_user').select('id').where('username', '=', `matrix_${role.toLowerCase()}`).executeTakeFirstOrThrow();
      actors[role] = await t.services.security.actorFor(user.id);
    }
  });
  afterAll(async () => t?.close());

  it('REST: 403 exactly where the matrix withholds the route’s permission', async () => {
    const routes = documentedRoutes(t.app).filter((r) => r.permission);
    expect(routes.length).toBeGreaterThan(150);
    const wrong: string[] = [];
    for (const route of routes) {
      for (const role of ROLES) {
        let req = t.http[route.method.toLowerCase() as 'get'](concrete(route.url)).set('Authorization', `Bearer ${tokens[role]}`);
        if (route.method !== 'GET' && route.method !== 'DELETE') req = req.send({ this_field: 'does not exist', page_size: 'not a number' });
        const res = await req;
        const refused = res.status === 403;
        if (refused === granted(role, route.permission!)) wrong.push(`${role} ${route.method} ${route.url} (${route.permission!.join(' on ')}) -> ${res.status} ${res.text.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('tRPC: FORBIDDEN exactly where the matrix withholds the procedure’s permission', async () => {
    const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: TrpcMeta } }>)
      .filter(([, p]) => p._def.meta?.permission)
      .map(([path, p]) => ({ path, permission: p._def.meta!.permission! }));
    expect(procedures.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    for (const { path, permission } of procedures) {
      for (const role of ROLES) {
        const caller = appRouter.createCaller({ actor: actors[role], services: t.services }) as unknown;
        // A nested procedure (annotationLayer.annotations.list) is reached segment by segment.
        const procedure = path.split('.').reduce((node, key) => (node as Record<string, unknown>)[key], caller) as (input: unknown) => Promise<unknown>;
        let code = 'OK';
        try {
          await procedure({ this_field: 'does not exist', id: 'not a number' });
        } catch (error) {
          code = (error as { code?: string }).code ?? 'ERROR';
        }
        if ((code === 'FORBIDDEN') === granted(role, permission)) wrong.push(`${role} ${path} (${permission.join(' on ')}) -> ${code}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
