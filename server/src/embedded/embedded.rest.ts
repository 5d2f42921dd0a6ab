import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { route } from '../rest/rest';
import type { Services } from '../services';

const IdOrSlug = z.object({ id_or_slug: z.string().min(1) });
const Embedded = z.object({ allowed_domains: z.array(z.string()).default([]) });
const GuestTokenBody = z.object({
  user: z.object({ username: z.string().optional(), first_name: z.string().optional(), last_name: z.string().optional() }).optional(),
  resources: z.array(z.object({ type: z.string(), id: z.union([z.string(), z.number()]).transform(String) })),
  // Superset's guest RLS rules: a clause for one dataset, or for every dataset when none is named.
  rls: z.array(z.object({ dataset: z.coerce.number().int().optional(), clause: z.string().trim().min(1) })).optional(),
});

/** `/api/v1/dashboard/{id}/embedded`, `/api/v1/embedded_dashboard/{uuid}` and `/api/v1/security/guest_token/`, as Superset's. */
export function registerEmbeddedRest(app: FastifyInstance, services: Services): void {
  const { embedded } = services;
  route(app, { method: 'GET', url: '/api/v1/dashboard/:id_or_slug/embedded', permission: ['can_read', 'Dashboard'], summary: "A dashboard's embedding (uuid, allowed domains)", tags: ['Dashboards'], params: IdOrSlug }, async ({ actor, params }) => ({
    result: await embedded.forDashboard(actor, params.id_or_slug),
  }));
  for (const method of ['POST', 'PUT'] as const) {
    route(app, { method, url: '/api/v1/dashboard/:id_or_slug/embedded', permission: ['can_write', 'Dashboard'], summary: 'Embed a dashboard, or change the domains allowed to frame it', tags: ['Dashboards'], params: IdOrSlug, body: Embedded }, async ({ actor, params, body }) => ({
      result: await embedded.upsert(actor, params.id_or_slug, body.allowed_domains),
    }));
  }
  route(app, { method: 'DELETE', url: '/api/v1/dashboard/:id_or_slug/embedded', permission: ['can_write', 'Dashboard'], summary: 'Stop embedding a dashboard', tags: ['Dashboards'], params: IdOrSlug }, async ({ actor, params }) => {
    await embedded.remove(actor, params.id_or_slug);
    return { message: 'OK' };
  });
  route(app, { method: 'GET', url: '/api/v1/embedded_dashboard/:uuid', permission: ['can_read', 'Dashboard'], summary: 'An embedded dashboard by its uuid', tags: ['Embedded Dashboard'], params: z.object({ uuid: z.string() }) }, async ({ actor, params }) => ({
    result: await embedded.byUuid(actor, params.uuid),
  }));
  route(app, { method: 'POST', url: '/api/v1/security/guest_token/', permission: ['can_grant_guest_token', 'SecurityRestApi'], summary: 'A guest token for embedded dashboards', tags: ['Security'], body: GuestTokenBody, unknown: 'exclude' }, ({ actor, body }) => embedded.guestToken(actor, body));
}
