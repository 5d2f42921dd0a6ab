import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DatasetCreateSchema, DatasetDuplicateSchema, DatasetGetOrCreateSchema, DatasetUpdateSchema } from '@meridian/contracts';
import { NotFound } from '../errors/domain-errors';
import { columnParams, extraFiltersOf, idList, pageOf, parseListQuery, PkParams, route, withRelationIds } from '../rest/rest';
import type { Services } from '../services';
import { exportDatasetsZip } from '../assets/bundle';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { registerRelated, relatedDatabases } from '../rest/related';
import { DATASET_DISTINCT_COLUMNS, DATASET_ORDER_COLUMNS } from './dataset.repository';

const ListParams = z.object({ q: z.unknown().optional() });
const IdsParams = z.object({ q: z.unknown() });
const tags = ['Datasets'];

/** /api/v1/dataset/ as Superset's DatasetRestApi. */
const DATASET_INFO: InfoSpec = {
  view: 'Dataset',
  title: 'Sqla Table',
  add: DatasetCreateSchema,
  edit: DatasetUpdateSchema,
  filters: {
    id: [{ operator: 'dataset_is_certified', name: 'Is certified' }],
    table_name: ['ct', 'eq', 'sw', 'ew'],
    schema: ['eq', 'ct'],
    catalog: ['eq'],
    sql: [{ operator: 'dataset_is_null_or_empty', name: 'Null or Empty' }],
    database: ['rel_o_m', 'nrel_o_m'],
    owners: ['rel_m_m', 'nrel_m_m'],
    created_by: ['rel_o_m', 'nrel_o_m'],
    changed_by: ['rel_o_m', 'nrel_o_m'],
  },
  permissions: ['can_read', 'can_write', 'can_export', 'can_duplicate', 'can_warm_up_cache', 'can_get_or_create_dataset'],
};

export function registerDatasetRest(app: FastifyInstance, services: Services): void {
  const { datasets } = services;
  route(app, { method: 'GET', url: '/api/v1/dataset/', list: { title: 'List Sqla Table', orderColumns: DATASET_ORDER_COLUMNS }, permission: ['can_read', 'Dataset'], summary: 'List datasets', tags, query: ListParams }, ({ actor, query }) =>
    datasets.list(actor, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/dataset/:pk', item: { title: 'Show Sqla Table' }, permission: ['can_read', 'Dataset'], summary: 'Get a dataset with its columns and metrics', tags, params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await datasets.get(actor, params.pk),
  }));
  // Superset's answers: `result` is the body as its schema loaded it (the two flags it defaults to false), `data`
  // the dataset made; a duplicate's `result` is its body alone.
  route(app, { method: 'POST', url: '/api/v1/dataset/', permission: ['can_write', 'Dataset'], summary: 'Create a dataset (physical table or SQL)', tags, body: DatasetCreateSchema, status: 201 }, async ({ actor, body }) => {
    const view = await datasets.create(actor, body);
    return { id: view.id, result: { ...body, normalize_columns: body.normalize_columns ?? false, always_filter_main_dttm: body.always_filter_main_dttm ?? false }, data: view };
  });
  route(app, { method: 'POST', url: '/api/v1/dataset/get_or_create/', permission: ['can_read', 'Dataset'], summary: 'Get the dataset of a table, creating it when missing', tags, body: DatasetGetOrCreateSchema }, async ({ actor, body }) => ({
    result: await datasets.getOrCreate(actor, body),
  }));
  route(app, { method: 'POST', url: '/api/v1/dataset/duplicate', permission: ['can_write', 'Dataset'], summary: 'Duplicate a virtual dataset', tags, body: DatasetDuplicateSchema, status: 201 }, async ({ actor, body }) => {
    const view = await datasets.duplicate(actor, body);
    return { id: view.id, result: body };
  });
  route(
    app,
    { method: 'PUT', url: '/api/v1/dataset/:pk', permission: ['can_write', 'Dataset'], summary: 'Update a dataset, its columns and metrics', tags, params: PkParams, body: DatasetUpdateSchema, query: z.object({ override_columns: z.coerce.boolean().optional() }) },
    async ({ actor, params, body, query }) => {
      const view = await datasets.update(actor, params.pk, body, { override_columns: query.override_columns });
      return { id: view.id, result: withRelationIds(view) };
    },
  );
  route(app, { method: 'PUT', url: '/api/v1/dataset/:pk/refresh', permission: ['can_write', 'Dataset'], summary: 'Refresh the columns from the source', tags, params: PkParams }, async ({ actor, params }) => {
    await datasets.refresh(actor, params.pk);
    return { message: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/dataset/:pk', permission: ['can_write', 'Dataset'], summary: 'Delete a dataset', tags, params: PkParams }, async ({ actor, params }) => {
    await datasets.delete(actor, params.pk);
    return { message: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/dataset/', permission: ['can_write', 'Dataset'], summary: 'Delete datasets (q=!(ids))', tags, query: IdsParams, rison: true }, async ({ actor, query }) => {
    const n = await datasets.bulkDelete(actor, idList(query.q, 'dataset'));
    return { message: `Deleted ${n} dataset${n === 1 ? '' : 's'}` };
  });
  route(app, { method: 'GET', url: '/api/v1/dataset/export/', permission: ['can_export', 'Dataset'], summary: 'Export datasets as a zip of YAML files (q=!(ids))', tags, query: IdsParams, rison: true }, async ({ actor, query, reply }) => {
    const records = await datasets.forExport(actor, idList(query.q, 'dataset'));
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', 'T');
    reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename=dataset_export_${stamp}.zip`)
      .send(exportDatasetsZip(records));
    return reply;
  });
  route(app, { method: 'GET', url: '/api/v1/dataset/_info', permission: ['can_read', 'Dataset'], summary: "What can be added, edited and filtered, and the caller's permissions on datasets", tags, query: ListParams, rison: true }, ({ actor, query }) =>
    infoAnswer(DATASET_INFO, actor!, query.q),
  );
  registerRelated(app, services, { resource: 'dataset', view: 'Dataset', tags, users: ['owners', 'created_by', 'changed_by'], others: { database: (actor, page) => relatedDatabases(services, actor, page) } });
  for (const kind of ['column', 'metric'] as const) {
    route(
      app,
      { method: 'DELETE', url: `/api/v1/dataset/:pk/${kind}/:child_id`, permission: ['can_write', 'Dataset'], summary: `Delete one ${kind} of a dataset`, tags, params: PkParams.extend({ child_id: z.coerce.number().int() }) },
      async ({ actor, params }) => {
        await datasets.deleteChild(actor, params.pk, kind, params.child_id);
        return { message: 'OK' };
      },
    );
  }
  route(
    app,
    { method: 'GET', url: '/api/v1/dataset/distinct/:column', permission: ['can_read', 'Dataset'], summary: 'Distinct values of a dataset column (schema, catalog)', tags, params: columnParams(DATASET_DISTINCT_COLUMNS), query: ListParams, rison: true },
    ({ actor, params, query }) => datasets.distinct(actor, params.column, pageOf(query.q)),
  );
  route(
    app,
    { method: 'PUT', url: '/api/v1/dataset/warm_up_cache', permission: ['can_warm_up_cache', 'Dataset'], summary: "Run the queries of every chart on a dataset so their answers are cached", tags, body: z.object({ db_name: z.string(), table_name: z.string(), dashboard_id: z.number().int().optional(), extra_filters: z.string().optional() }) },
    async ({ actor, body }) => {
      const [id] = await datasets.idsOf({ datasources: [{ database_name: body.db_name, datasource_name: body.table_name }] });
      if (id === undefined) throw new NotFound('Dataset not found');
      await datasets.getAccessible(actor!, id).catch(() => {
        throw new NotFound('Dataset not found');
      });
      const charts = await services.charts.forWarmUp(actor, { datasetId: id });
      const result = [];
      for (const chart of charts) result.push(await services.chartData.warmUp(actor!, chart, extraFiltersOf(body.extra_filters)));
      return { result };
    },
  );
  route(app, { method: 'GET', url: '/api/v1/dataset/:pk/related_objects', permission: ['can_read', 'Dataset'], summary: 'Charts and dashboards using a dataset', tags, params: PkParams }, ({ actor, params }) =>
    datasets.relatedObjects(actor, params.pk),
  );
}
