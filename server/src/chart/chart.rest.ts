import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ChartCreateSchema, ChartDataRequestSchema, ChartUpdateSchema } from '@meridian/contracts';
import { Invalid, StructuredError } from '../errors/domain-errors';
import { parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';

const tags = ['Charts'];
const ListParams = z.object({ q: z.unknown().optional() });

function idList(q: unknown): number[] {
  const ids = Array.isArray(q) ? q : q === undefined ? [] : [q];
  if (!ids.length || ids.some((id) => !Number.isInteger(Number(id)))) throw new Invalid({ q: ['Expected a list of chart ids, e.g. q=!(1,2)'] });
  return ids.map(Number);
}

/** /api/v1/chart/ as Superset's ChartRestApi (chart data lives in chart-data.rest.ts). */
export function registerChartRest(app: FastifyInstance, services: Services): void {
  const { charts } = services;
  route(app, { method: 'GET', url: '/api/v1/chart/', permission: ['can_read', 'Chart'], summary: 'List charts (slice_name all-text search, owners, dashboards, favourites)', tags, query: ListParams }, ({ actor, query }) =>
    charts.list(actor, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/chart/favorite_status/', permission: ['can_read', 'Chart'], summary: 'Favourite status of charts (q=!(ids))', tags, query: ListParams, rison: true }, async ({ actor, query }) => ({
    result: await charts.favoriteStatus(actor, idList(query.q)),
  }));
  route(app, { method: 'GET', url: '/api/v1/chart/related/owners', permission: ['can_read', 'Chart'], summary: 'Users for the owners filter', tags, query: ListParams, rison: true }, async ({ actor, query }) => {
    const q = (query.q ?? {}) as { filter?: string; page?: number; page_size?: number };
    return charts.relatedOwners(actor, { filter: String(q.filter ?? ''), page: Number(q.page ?? 0), pageSize: Math.min(Number(q.page_size ?? 100), 1000) });
  });
  route(app, { method: 'GET', url: '/api/v1/chart/:pk', permission: ['can_read', 'Chart'], summary: 'Get a chart with its dashboards', tags, params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await charts.get(actor, params.pk),
  }));
  route(app, { method: 'POST', url: '/api/v1/chart/', permission: ['can_write', 'Chart'], summary: 'Save a chart', tags, body: ChartCreateSchema, status: 201 }, async ({ actor, body }) => {
    const chart = await charts.create(actor, body);
    return { id: chart.id, result: chart };
  });
  route(app, { method: 'PUT', url: '/api/v1/chart/:pk', permission: ['can_write', 'Chart'], summary: 'Overwrite a chart', tags, params: PkParams, body: ChartUpdateSchema }, async ({ actor, params, body }) => {
    const chart = await charts.update(actor, params.pk, body);
    return { id: chart.id, result: chart };
  });
  route(app, { method: 'DELETE', url: '/api/v1/chart/:pk', permission: ['can_write', 'Chart'], summary: 'Delete a chart', tags, params: PkParams }, async ({ actor, params }) => {
    await charts.delete(actor, params.pk);
    return { message: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/chart/', permission: ['can_write', 'Chart'], summary: 'Delete charts (q=!(ids))', tags, query: ListParams, rison: true }, async ({ actor, query }) => {
    const n = await charts.bulkDelete(actor, idList(query.q));
    return { message: `Deleted ${n} chart${n === 1 ? '' : 's'}` };
  });
  route(app, { method: 'POST', url: '/api/v1/chart/:pk/favorites/', permission: ['can_read', 'Chart'], summary: 'Mark a chart as favourite', tags, params: PkParams }, async ({ actor, params }) => {
    await charts.setFavorite(actor, params.pk, true);
    return { result: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/chart/:pk/favorites/', permission: ['can_read', 'Chart'], summary: 'Unmark a favourite chart', tags, params: PkParams }, async ({ actor, params }) => {
    await charts.setFavorite(actor, params.pk, false);
    return { result: 'OK' };
  });
  route(
    app,
    { method: 'GET', url: '/api/v1/chart/:pk/data/', permission: ['can_read', 'Chart'], summary: "A saved chart's data from its stored query context", tags, params: PkParams, query: z.object({ format: z.enum(['json', 'csv', 'xlsx']).optional(), type: z.string().optional(), force: z.string().optional() }) },
    async ({ actor, params, query, reply }) => {
      const chart = await charts.record(actor, params.pk);
      if (!chart.query_context) {
        throw new StructuredError(400, [{ message: 'Chart has no query context saved. Please save the chart again.', error_type: 'INVALID_PAYLOAD_SCHEMA_ERROR', level: 'error', extra: {} }]);
      }
      const context = ChartDataRequestSchema.parse({
        ...JSON.parse(chart.query_context),
        ...(query.format ? { result_format: query.format } : {}),
        ...(query.type ? { result_type: query.type } : {}),
        force: query.force === 'true',
      });
      const answer = await services.chartData.data(actor, context, { sliceId: chart.id });
      if (answer.kind === 'json') return reply.header('content-type', 'application/json; charset=utf-8').send(answer.body);
      if (answer.kind === 'async') return reply.code(202).send(answer.body);
      return reply.header('content-type', answer.contentType).header('content-disposition', `attachment; filename="${answer.filename}"`).send(answer.body);
    },
  );
}
