import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { NotFound } from '../errors/domain-errors';
import { route } from '../rest/rest';
import type { Services } from '../services';
import type { Picture } from './screenshot.service';

const PkDigest = z.object({ pk: z.coerce.number().int(), digest: z.string().regex(/^[0-9a-f]{8,64}$/i) });
const Pk = z.object({ pk: z.coerce.number().int() });

/** This server as the renderer's browser reaches it (the address the request came in on). */
const baseUrlOf = (req: FastifyRequest) => `http://127.0.0.1:${req.socket.localPort}`;

function answer(reply: FastifyReply, picture: Picture | null, movedTo: (digest: string) => string) {
  if (!picture) throw new NotFound();
  if (picture.state === 'moved') return reply.redirect(movedTo(picture.digest), 302);
  if (picture.state === 'pending') return reply.code(202).send({ message: 'OK' });
  return reply.header('content-type', 'image/png').header('cache-control', 'private, max-age=86400').send(picture.png);
}

/** Superset's screenshot and thumbnail endpoints of charts and dashboards. */
export function registerScreenshotRest(app: FastifyInstance, services: Services): void {
  const { screenshots } = services;
  for (const kind of ['chart', 'dashboard'] as const) {
    const view = kind === 'chart' ? 'Chart' : 'Dashboard';
    const tags = [kind === 'chart' ? 'Charts' : 'Dashboards'];
    route(app, { method: 'GET', url: `/api/v1/${kind}/:pk/thumbnail/:digest/`, permission: ['can_read', view], summary: `The ${kind}'s thumbnail (PNG); 202 while it is drawn, 302 to the current digest`, tags, params: PkDigest, query: z.object({ q: z.unknown().optional() }) }, async ({ actor, params, req, reply }) =>
      answer(reply, await screenshots.picture(actor, kind, params.pk, params.digest, { redirectStale: true, baseUrl: baseUrlOf(req) }), (d) => `/api/v1/${kind}/${params.pk}/thumbnail/${d}/`),
    );
    route(app, { method: 'GET', url: `/api/v1/${kind}/:pk/screenshot/:digest/`, permission: ['can_read', view], summary: `A ${kind} screenshot made by cache_screenshot (PNG), or 404`, tags, params: PkDigest, query: z.object({ download_format: z.string().optional() }) }, async ({ actor, params, req, reply }) =>
      answer(reply, await screenshots.picture(actor, kind, params.pk, params.digest, { redirectStale: false, baseUrl: baseUrlOf(req) }), () => ''),
    );
  }
  route(app, { method: 'GET', url: '/api/v1/chart/:pk/cache_screenshot/', permission: ['can_read', 'Chart'], summary: "Draw the chart's screenshot (force=true draws it again)", tags: ['Charts'], params: Pk, query: z.object({ q: z.unknown().optional() }), rison: true, status: 202 }, async ({ actor, params, query, req }) => {
    const force = !!(query.q as { force?: boolean } | undefined)?.force;
    const digest = await screenshots.request(actor, 'chart', params.pk, baseUrlOf(req), { force });
    return { cache_key: digest, chart_url: `/explore/?slice_id=${params.pk}&standalone=1`, image_url: `/api/v1/chart/${params.pk}/screenshot/${digest}/` };
  });
  route(app, { method: 'POST', url: '/api/v1/dashboard/:pk/cache_dashboard_screenshot/', permission: ['can_read', 'Dashboard'], summary: "Draw the dashboard's screenshot", tags: ['Dashboards'], params: Pk, status: 202 }, async ({ actor, params, req }) => {
    const digest = await screenshots.request(actor, 'dashboard', params.pk, baseUrlOf(req), { force: true });
    return { cache_key: digest, dashboard_url: `/superset/dashboard/${params.pk}/?standalone=3`, image_url: `/api/v1/dashboard/${params.pk}/screenshot/${digest}/` };
  });
}
