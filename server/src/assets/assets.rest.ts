import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { refuseNulText } from '../common/nul-text';
import { Invalid } from '../errors/domain-errors';
import { idList, route } from '../rest/rest';
import type { Services } from '../services';
import type { Bundle, BundleKind } from './bundle';

const IdsParams = z.object({ q: z.unknown() });
/** The largest import bundle read (Superset's exports of whole instances stay far below). */
const MAX_BUNDLE_BYTES = 100 * 1024 * 1024;

function sendZip(reply: FastifyReply, bundle: Bundle) {
  return reply.header('content-type', 'application/zip').header('content-disposition', `attachment; filename=${bundle.fileName}`).send(bundle.zip());
}

/**
 * The multipart form of an import: the zip (`formData`, or `bundle` for whole-instance imports), `passwords`
 * (JSON: database passwords by bundle file) and `overwrite`.
 */
async function readImportForm(req: FastifyRequest): Promise<{ zip: Buffer; passwords: Record<string, string>; overwrite: boolean }> {
  if (!req.isMultipart()) throw new Invalid({ formData: ['Missing data for required field.'] });
  let zip: Buffer | null = null;
  const fields: Record<string, string> = {};
  for await (const part of req.parts({ limits: { fileSize: MAX_BUNDLE_BYTES } })) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (part.file.truncated) throw new Invalid({ formData: ['The file is too large'] });
      if (part.fieldname === 'formData' || part.fieldname === 'bundle') zip = data;
    } else fields[part.fieldname] = String(part.value);
  }
  if (!zip) throw new Invalid({ formData: ['Missing data for required field.'] });
  refuseNulText(fields);
  let passwords: Record<string, string> = {};
  if (fields.passwords) {
    try {
      passwords = JSON.parse(fields.passwords);
    } catch {
      throw new Invalid({ passwords: ['Field cannot be decoded by JSON.'] });
    }
  }
  return { zip, passwords, overwrite: fields.overwrite === 'true' };
}

/** Export and import of Superset's ImportExport v1 bundles, per resource and for the whole instance. */
export function registerAssetsRest(app: FastifyInstance, services: Services): void {
  const { assetExport, assetImport } = services;
  route(app, { method: 'GET', url: '/api/v1/chart/export/', permission: ['can_export', 'Chart'], summary: 'Export charts with their datasets and databases as a zip of YAML (q=!(ids))', tags: ['Charts'], query: IdsParams, rison: true }, async ({ actor, query, reply }) =>
    sendZip(reply, await assetExport.charts(actor, idList(query.q))),
  );
  route(app, { method: 'GET', url: '/api/v1/dashboard/export/', permission: ['can_export', 'Dashboard'], summary: 'Export dashboards with their charts, datasets and databases as a zip of YAML (q=!(ids))', tags: ['Dashboards'], query: IdsParams, rison: true }, async ({ actor, query, reply }) =>
    sendZip(reply, await assetExport.dashboards(actor, idList(query.q))),
  );
  route(app, { method: 'GET', url: '/api/v1/database/export/', permission: ['can_export', 'Database'], summary: 'Export databases (passwords masked) with their datasets as a zip of YAML (q=!(ids))', tags: ['Database'], query: IdsParams, rison: true }, async ({ actor, query, reply }) =>
    sendZip(reply, await assetExport.databases(actor, idList(query.q))),
  );
  route(app, { method: 'GET', url: '/api/v1/saved_query/export/', permission: ['can_export', 'SavedQuery'], summary: 'Export saved queries with their databases as a zip of YAML (q=!(ids))', tags: ['Queries'], query: IdsParams, rison: true }, async ({ actor, query, reply }) =>
    sendZip(reply, await assetExport.savedQueries(actor, idList(query.q))),
  );
  route(app, { method: 'GET', url: '/api/v1/assets/export/', permission: ['can_export', 'ImportExportRestApi'], summary: 'Export every dashboard, chart, dataset and database', tags: ['Import/export'] }, async ({ actor, reply }) =>
    sendZip(reply, await assetExport.all(actor)),
  );
  const imports: Array<[string, BundleKind, [string, string], string]> = [
    ['/api/v1/chart/import/', 'chart', ['can_write', 'Chart'], 'Charts'],
    ['/api/v1/dashboard/import/', 'dashboard', ['can_write', 'Dashboard'], 'Dashboards'],
    ['/api/v1/dataset/import/', 'dataset', ['can_write', 'Dataset'], 'Datasets'],
    ['/api/v1/database/import/', 'database', ['can_write', 'Database'], 'Database'],
    ['/api/v1/saved_query/import/', 'saved_query', ['can_write', 'SavedQuery'], 'Queries'],
    ['/api/v1/assets/import/', 'assets', ['can_import', 'ImportExportRestApi'], 'Import/export'],
  ];
  for (const [url, kind, permission, tag] of imports) {
    route(app, { method: 'POST', url, permission, summary: `Import a ${kind === 'assets' ? 'whole-instance' : kind} export bundle (multipart: formData, passwords, overwrite)`, tags: [tag] }, async ({ actor, req }) => {
      const form = await readImportForm(req);
      await assetImport.importBundle(actor, kind, form.zip, { overwrite: form.overwrite, passwords: form.passwords });
      return { message: 'OK' };
    });
  }
}
