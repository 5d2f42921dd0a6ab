import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { ChartDataRequestSchema } from '@meridian/contracts';
import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { getSinceUntil, formatNaive, shiftRange, TimeRangeError } from '@meridian/contracts/chart-data/time-range';
import { parseDatasourceKey } from '@meridian/contracts/rules/validators';
import { Invalid } from '../errors/domain-errors';
import { route } from '../rest/rest';
import type { Services } from '../services';
import type { ChartDataAnswer } from './chart-data.service';

const tags = ['Charts'];

function parseJsonParam(value: unknown, field: string): Record<string, any> | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'object') return value as Record<string, any>;
  try {
    return JSON.parse(String(value));
  } catch {
    throw new Invalid({ [field]: ['Request is not JSON'] });
  }
}

function send(reply: FastifyReply, answer: ChartDataAnswer) {
  if (answer.kind === 'json') return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(answer.body);
  if (answer.kind === 'async') return reply.code(202).send(answer.body);
  return reply.code(200).header('content-type', answer.contentType).header('content-disposition', `attachment; filename="${answer.filename}"`).send(answer.body);
}

const truthy = z.union([z.boolean(), z.string()]).optional().transform((v) => v === true || v === 'true' || v === '1');

/** Chart data doors: `/api/v1/chart/data`, the legacy `/superset/explore_json/`, datasource metadata and samples, async events, time ranges. */
export function registerChartDataRest(app: FastifyInstance, services: Services): void {
  const { chartData } = services;

  route(app, { method: 'POST', url: '/api/v1/chart/data', permission: ['can_read', 'Chart'], summary: "Chart data from Superset's query context", tags, query: z.object({ form_data: z.string().optional(), force: truthy }) }, async ({ actor, body, query, reply }) => {
    const formData = parseJsonParam(query.form_data, 'form_data');
    const raw = (body ?? {}) as Record<string, unknown>;
    const parsed = ChartDataRequestSchema.parse({ ...raw, force: raw.force ?? query.force ?? false });
    const answer = await chartData.data(actor, parsed, { sliceId: formData?.slice_id ? Number(formData.slice_id) : null });
    return send(reply, answer);
  });

  route(app, { method: 'GET', url: '/api/v1/chart/data/:cache_key', permission: ['can_read', 'Chart'], summary: 'Result of an asynchronous chart data job', tags, params: z.object({ cache_key: z.string() }) }, async ({ actor, params, reply }) => {
    const text = await chartData.cachedResult(actor, params.cache_key);
    return reply.header('content-type', 'application/json; charset=utf-8').send(text);
  });

  const explore = async ({ actor, body, query, reply }: any) => {
    const fromBody = typeof body === 'object' && body ? (body as Record<string, unknown>).form_data : undefined;
    const formData = parseJsonParam(fromBody ?? query.form_data, 'form_data');
    if (!formData) throw new Invalid({ form_data: ['Missing data for required field.'] });
    const resultFormat = query.csv === 'true' ? 'csv' : query.xlsx === 'true' ? 'xlsx' : 'json';
    const resultType = query.query === 'true' ? 'query' : query.results === 'true' ? 'results' : query.samples === 'true' ? 'samples' : 'full';
    let context;
    try {
      context = queryContextFromFormData(formData, { resultFormat, resultType, force: query.force === 'true' });
    } catch (error) {
      throw new Invalid({ form_data: [(error as Error).message] });
    }
    const answer = await chartData.data(actor, ChartDataRequestSchema.parse(context), { sliceId: formData.slice_id ? Number(formData.slice_id) : null, allowAsync: false });
    if (answer.kind !== 'json') return send(reply, answer);
    // The legacy answer is the first query's payload with the form data beside it.
    const first = (JSON.parse(answer.body) as { result: Record<string, unknown>[] }).result[0];
    // query=true answers only the SQL and its language, as Superset's get_query_string_response.
    if (resultType === 'query') return reply.header('content-type', 'application/json; charset=utf-8').send({ query: first.query, language: first.language });
    return reply.header('content-type', 'application/json; charset=utf-8').send({ ...first, form_data: formData, errors: [] });
  };
  route(app, { method: 'POST', url: '/superset/explore_json/', permission: ['can_read', 'Chart'], summary: 'Legacy chart data from form_data', tags: ['Legacy'] }, explore);
  route(app, { method: 'GET', url: '/superset/explore_json/', permission: ['can_read', 'Chart'], summary: 'Legacy chart data from form_data', tags: ['Legacy'] }, explore);

  route(app, { method: 'GET', url: '/superset/fetch_datasource_metadata', permission: ['can_read', 'Dataset'], summary: 'Datasource metadata by datasourceKey (id__type)', tags: ['Legacy'], query: z.object({ datasourceKey: z.string() }) }, async ({ actor, query }) => {
    let key;
    try {
      key = parseDatasourceKey(query.datasourceKey);
    } catch (error) {
      throw new Invalid((error as Error).message);
    }
    return services.explore.datasourceMetadata(actor, key);
  });

  route(
    app,
    {
      method: 'POST',
      url: '/datasource/samples', permission: ['can_read', 'Dataset'],
      summary: 'A page of sample rows of a datasource',
      tags: ['Datasets'],
      query: z.object({ force: truthy, datasource_type: z.string(), datasource_id: z.coerce.number().int(), per_page: z.coerce.number().int().optional(), page: z.coerce.number().int().optional() }),
    },
    async ({ actor, query, body }) => ({
      result: await chartData.samples(actor, {
        datasourceId: query.datasource_id,
        datasourceType: query.datasource_type,
        page: query.page ?? 1,
        perPage: query.per_page ?? 1000,
        force: query.force,
        payload: (body && typeof body === 'object' ? body : {}) as Record<string, unknown>,
      }),
    }),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/datasource/:datasource_type/:datasource_id/column/:column_name/values/',
      summary: 'Distinct values of a datasource column',
      tags: ['Datasources'],
      params: z.object({ datasource_type: z.string(), datasource_id: z.coerce.number().int(), column_name: z.string().min(1) }),
    },
    async ({ actor, params }) => ({ result: await chartData.columnValues(actor, { id: params.datasource_id, type: params.datasource_type }, params.column_name) }),
  );

  route(app, { method: 'GET', url: '/api/v1/async_event/', summary: 'Async query events after last_id', tags: ['AsyncEvents'], query: z.object({ last_id: z.string().optional() }) }, async ({ actor, query }) => ({
    result: await services.asyncEvents.events(actor, query.last_id ?? null),
  }));

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/cachekey/invalidate',
      permission: ['can_invalidate', 'CacheRestApi'],
      summary: "Drop the cached chart data of datasets (datasource_uids such as '7__table', or datasources by name)",
      tags: ['CacheRestApi'],
      body: z.object({
        datasource_uids: z.array(z.string()).optional(),
        datasources: z.array(z.object({ datasource_name: z.string(), database_name: z.string(), catalog: z.string().nullish(), schema: z.string().nullish(), datasource_type: z.string().optional() })).optional(),
      }),
      status: 201,
    },
    async ({ body }) => {
      await chartData.invalidateCache(await services.datasets.idsOf(body));
      return { message: 'OK' };
    },
  );
  route(app, { method: 'GET', url: '/api/v1/time_range/', summary: 'Since and until of a time range', tags: ['Explore'], query: z.object({ q: z.unknown().optional() }), rison: true }, async ({ query }) => {
    const ranges = Array.isArray(query.q) ? query.q : [query.q ?? 'No filter'];
    return {
      result: ranges.map((timeRange) => {
        const item: { timeRange?: unknown; shift?: unknown } = typeof timeRange === 'object' && timeRange ? timeRange : { timeRange };
        const text = String(item.timeRange ?? '');
        const shift = item.shift === undefined || item.shift === null || item.shift === '' ? null : String(item.shift);
        try {
          // Superset's get_since_until(time_range, time_shift=shift): both ends moved by the shift ('1 year ago').
          const range = getSinceUntil(text, { now: new Date(Date.now() - new Date().getTimezoneOffset() * 60_000) });
          const { since, until } = shift ? shiftRange(range, shift) : range;
          return { since: formatNaive(since) ?? '', until: formatNaive(until) ?? '', timeRange: text, shift };
        } catch (error) {
          if (error instanceof TimeRangeError) throw new Invalid(`Unexpected time range: ${error.message}`);
          throw error;
        }
      }),
    };
  });
}
