import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { route } from '../rest/rest';
import type { Services } from '../services';

const Query = z.object({
  q: z.object({ page_size: z.coerce.number().int().min(1).max(100).optional(), distinct: z.boolean().optional() }).optional(),
});

/** `/api/v1/log/recent_activity/`, as Superset's home page calls it. */
export function registerHomeRest(app: FastifyInstance, services: Services): void {
  route(app, { method: 'GET', url: '/api/v1/log/recent_activity/', summary: "The current user's recent activity", tags: ['LogRestApi'], query: Query, rison: true }, async ({ actor, query }) => ({
    result: await services.home.recentActivity(actor, query.q?.page_size, query.q?.distinct ?? true),
  }));
}
