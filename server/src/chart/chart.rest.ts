import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ChartCreateSchema, ChartDataRequestSchema, ChartUpdateSchema } from '@meridian/contracts';
import { StructuredError } from '../errors/domain-errors';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { withExtra } from '../rest/related';
import { columnParams, extraFiltersOf, idList, pageOf, parseListQuery, PkParams, route } from '../rest/rest';
import { CHART_ORDER_COLUMNS, DISTINCT_COLUMNS } from './chart.repository';
import { CHART_RELATED_COLUMNS } from './chart.service';
import type { Services } from '../services';

const tags = ['Charts'];
const ListParams = z.object({ q: z.unknown().optional() });

const CHART_INFO: InfoSpec = {
  view: 'Chart',
  title: 'Chart',
  add: ChartCreateSchema,
  edit: ChartUpdateSchema,
  filters: {
    id: [{ operator: 'chart_is_favorite', name: 'Is favorite' }, { operator: 'chart_is_certified', name: 'Is certified' }, { operator: 'chart_owned_created_favored_by_me', name: 'Owned Created or Favored' }],
    slice_name: [{ operator: 'chart_all_text', name: 'All Text' }, 'ct', 'eq', 'sw', 'ew'],
    viz_type: ['eq', 'neq', 'ct'],
    datasource_id: ['eq'],
    datasource_name: ['eq', 'ct'],
    owners: ['rel_m_m', 'nrel_m_m'],
    dashboards: ['rel_m_m'],
    created_by: ['rel_o_m', 'nrel_o_m'],
    changed_by: ['rel_o_m', 'nrel_o_m'],
    certified_by: ['eq', 'ct'],
  },
  permissions: ['can_read', 'can_write', 'can_export', 'can_warm_up_cache'],
};

/** /api/v1/chart/ as Superset's ChartRestApi (chart data lives in chart-data.rest.ts). */
export function registerChartRest(app: FastifyInstance, services: Services): void {
  const { charts } = services;
  route(app, { method: 'GET', url: '/api/v1/chart/', list: { title: 'List Slice', orderColumns: CHART_ORDER_COLUMNS }, permission: ['can_read', 'Chart'], summary: 'List charts (slice_name all-text search, owners, dashboards, favourites)', tags, query: ListParams }, ({ actor, query }) =>
    charts.list(actor, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/chart/favorite_status/', permission: ['can_read', 'Chart'], summary: 'Favourite status of charts (q=!(ids))', tags, query: ListParams, rison: true }, async ({ actor, query }) => ({
    result: await charts.favoriteStatus(actor, idList(query.q, 'chart')),
  }));
  route(app, { method: 'GET', url: '/api/v1/chart/_info', permission: ['can_read', 'Chart'], summary: 'What can be added, edited and filtered, and the caller\'s permissions on charts', tags, query: ListParams, rison: true }, ({ actor, query }) =>
    infoAnswer(CHART_INFO, actor!, query.q),
  );
  route(
    app,
    { method: 'GET', url: '/api/v1/chart/related/:column', permission: ['can_read', 'Chart'], summary: 'Choices for a related field (owners, created_by, changed_by, dashboards)', tags, params: columnParams(CHART_RELATED_COLUMNS), query: ListParams, rison: true },
    ({ actor, params, query }) => withExtra(charts.related(actor, params.column, pageOf(query.q))),
  );
  route(
    app,
    { method: 'GET', url: '/api/v1/chart/distinct/:column', permission: ['can_read', 'Chart'], summary: 'Distinct values of a chart column', tags, params: columnParams(Object.keys(DISTINCT_COLUMNS) as Array<keyof typeof DISTINCT_COLUMNS>), query: ListParams, rison: true },
    ({ actor, params, query }) => charts.distinct(actor, params.column, pageOf(query.q)),
  );
  route(
    app,
    { method: 'PUT', url: '/api/v1/chart/warm_up_cache', permission: ['can_warm_up_cache', 'Chart'], summary: "Run a saved chart's query so its answer is cached", tags, body: z.object({ chart_id: z.number().int(), dashboard_id: z.number().int().optional(), extra_filters: z.string().optional() }) },
    async ({ actor, body }) => {
      const [chart] = await charts.forWarmUp(actor, { chartId: body.chart_id });
      return { result: [await services.chartData.warmUp(actor!, chart!, extraFiltersOf(body.extra_filters))] };
    },
  );
  route(app, { method: 'GET', url: '/api/v1/chart/:pk', item: { title: 'Show Slice' }, permission: ['can_read', 'Chart'], summary: 'Get a chart with its dashboards', tags, params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await charts.get(actor, params.pk),
  }));
  route(app, { method: 'POST', url: '/api/v1/chart/', permission: ['can_write', 'Chart'], summary: 'Save a chart', tags, body: ChartCreateSchema, status: 201 }, async ({ actor, body }) => {
    // Superset answers `result=item`: the body as ChartPostSchema loaded it, not the stored chart.
    const chart = await charts.create(actor, body);
    return { id: chart.id, result: body };
  });
  route(app, { method: 'PUT', url: '/api/v1/chart/:pk', permission: ['can_write', 'Chart'], summary: 'Overwrite a chart', tags, params: PkParams, body: ChartUpdateSchema }, async ({ actor, params, body }) => {
    const chart = await charts.update(actor, params.pk, body);
    return { id: chart.id, result: body };
  });
  route(app, { method: 'DELETE', url: '/api/v1/chart/:pk', permission: ['can_write', 'Chart'], summary: 'Delete a chart', tags, params: PkParams }, async ({ actor, params }) => {
    await charts.delete(actor, params.pk);
    return { message: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/chart/', permission: ['can_write', 'Chart'], summary: 'Delete charts (q=!(ids))', tags, query: ListParams, rison: true }, async ({ actor, query }) => {
    const n = await charts.bulkDelete(actor, idList(query.q, 'chart'));
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
