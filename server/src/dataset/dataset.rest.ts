import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DatasetCreateSchema, DatasetDuplicateSchema, DatasetGetOrCreateSchema, DatasetUpdateSchema } from '@meridian/contracts';
import { NotFound } from '../errors/domain-errors';
import { extraFiltersOf, idList, pageOf, parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';
import { exportDatasetsZip } from '../assets/bundle';

const ListParams = z.object({ q: z.unknown().optional() });
const IdsParams = z.object({ q: z.unknown() });
const tags = ['Datasets'];

/** /api/v1/dataset/ as Superset's DatasetRestApi. */
export function registerDatasetRest(app: FastifyInstance, services: Services): void {
  const { datasets } = services;
  route(app, { method: 'GET', url: '/api/v1/dataset/', permission: ['can_read', 'Dataset'], summary: 'List datasets', tags, query: ListParams }, ({ actor, query }) =>
    datasets.list(actor, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/dataset/:pk', permission: ['can_read', 'Dataset'], summary: 'Get a dataset with its columns and metrics', tags, params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await datasets.get(actor, params.pk),
  }));
  route(app, { method: 'POST', url: '/api/v1/dataset/', permission: ['can_write', 'Dataset'], summary: 'Create a dataset (physical table or SQL)', tags, body: DatasetCreateSchema, status: 201 }, async ({ actor, body }) => {
    const view = await datasets.create(actor, body);
    return { id: view.id, result: view, data: view };
  });
  route(app, { method: 'POST', url: '/api/v1/dataset/get_or_create/', permission: ['can_read', 'Dataset'], summary: 'Get the dataset of a table, creating it when missing', tags, body: DatasetGetOrCreateSchema }, async ({ actor, body }) => ({
    result: await datasets.getOrCreate(actor, body),
  }));
  route(app, { method: 'POST', url: '/api/v1/dataset/duplicate', permission: ['can_write', 'Dataset'], summary: 'Duplicate a virtual dataset', tags, body: DatasetDuplicateSchema, status: 201 }, async ({ actor, body }) => {
    const view = await datasets.duplicate(actor, body);
    return { id: view.id, result: view };
  });
  route(
    app,
    { method: 'PUT', url: '/api/v1/dataset/:pk', permission: ['can_write', 'Dataset'], summary: 'Update a dataset, its columns and metrics', tags, params: PkParams, body: DatasetUpdateSchema, query: z.object({ override_columns: z.coerce.boolean().optional() }) },
    async ({ actor, params, body, query }) => {
      const view = await datasets.update(actor, params.pk, body, { override_columns: query.override_columns });
      return { id: view.id, result: view };
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
  route(app, { method: 'GET', url: '/api/v1/dataset/related/owners', permission: ['can_read', 'Chart'], summary: 'Users for the owners filter', tags, query: ListParams, rison: true }, ({ actor, query }) =>
    services.charts.related(actor, 'owners', pageOf(query.q)),
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
