import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ReportCreateSchema, ReportUpdateSchema } from '@meridian/contracts';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { parseListQuery, PkParams, route } from '../rest/rest';
import { registerRelated, relatedDatabases, relatedFromList } from '../rest/related';
import type { Services } from '../services';
import { REPORT_LOG_ORDER_COLUMNS, REPORT_ORDER_COLUMNS } from './report.service';

const tags = ['Report Schedules'];
const ListParams = z.object({ q: z.unknown().optional() });
const DeleteIds = z.object({ q: z.array(z.coerce.number().int()) });

const INFO: InfoSpec = {
  view: 'ReportSchedule',
  title: 'Report Schedule',
  add: ReportCreateSchema,
  edit: ReportUpdateSchema,
  filters: {
    name: ['ct', 'eq', 'sw'], type: ['eq'], active: ['eq'], crontab: ['ct'], last_state: ['eq'], chart_id: ['eq'], dashboard_id: ['eq'],
    creation_method: ['eq'], owners: ['rel_m_m'], created_by: ['rel_o_m'], changed_by: ['rel_o_m'],
  },
  permissions: ['can_read', 'can_write'],
};

/** /api/v1/report/ as Superset's ReportScheduleRestApi (and its execution log, ReportExecutionLogRestApi). */
export function registerReportRest(app: FastifyInstance, services: Services): void {
  const { reports } = services;
  const read = ['can_read', 'ReportSchedule'] as const;
  const write = ['can_write', 'ReportSchedule'] as const;
  registerRelated(app, services, {
    resource: 'report',
    view: 'ReportSchedule',
    tags,
    users: ['owners', 'created_by', 'changed_by'],
    others: {
      database: (actor, page) => relatedDatabases(services, actor, page),
      chart: (actor, page) => relatedFromList((q) => services.charts.list(actor, q) as never, 'slice_name', page),
      dashboard: (actor, page) => relatedFromList((q) => services.dashboards.list(actor, q) as never, 'dashboard_title', page),
    },
  });
  route(app, { method: 'GET', url: '/api/v1/report/', list: { title: 'List Report Schedule', orderColumns: REPORT_ORDER_COLUMNS }, permission: [...read], summary: 'List reports and alerts', tags, query: ListParams }, ({ actor, query }) => reports.list(actor, parseListQuery(query.q)));
  route(app, { method: 'GET', url: '/api/v1/report/_info', permission: [...read], summary: 'Fields, filters and permissions of reports', tags, query: ListParams, rison: true }, ({ actor, query }) => infoAnswer(INFO, actor!, query.q));
  route(app, { method: 'GET', url: '/api/v1/report/:pk', item: { title: 'Show Report Schedule' }, permission: [...read], summary: 'Get a report or alert', tags, params: PkParams }, async ({ actor, params }) => ({ id: params.pk, result: await reports.get(actor, params.pk) }));
  route(app, { method: 'POST', url: '/api/v1/report/', permission: [...write], summary: 'Create a report or alert', tags, body: ReportCreateSchema, status: 201 }, async ({ actor, body }) => ({ id: await reports.create(actor, body), result: body }));
  route(app, { method: 'PUT', url: '/api/v1/report/:pk', permission: [...write], summary: 'Update a report or alert (active alone toggles it)', tags, params: PkParams, body: ReportUpdateSchema }, async ({ actor, params, body }) => {
    await reports.update(actor, params.pk, body);
    return { id: params.pk, result: body };
  });
  route(app, { method: 'DELETE', url: '/api/v1/report/:pk', permission: [...write], summary: 'Delete a report or alert', tags, params: PkParams }, async ({ actor, params }) => {
    await reports.delete(actor, [params.pk]);
    return { message: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/report/', permission: [...write], summary: 'Delete reports in bulk (q=!(1,2))', tags, rison: true, query: DeleteIds }, async ({ actor, query }) => {
    const n = await reports.delete(actor, query.q);
    return { message: `Deleted ${n} report schedule${n === 1 ? '' : 's'}` };
  });
  route(app, { method: 'GET', url: '/api/v1/report/:pk/log/', list: { title: 'List Report Execution Log', orderColumns: REPORT_LOG_ORDER_COLUMNS }, permission: [...read], summary: "A report's execution log", tags, params: PkParams, query: ListParams }, ({ actor, params, query }) => reports.logs(actor, params.pk, parseListQuery(query.q)));
  route(app, { method: 'GET', url: '/api/v1/report/:pk/log/:log_id', permission: [...read], summary: 'One execution log entry', tags, params: PkParams.extend({ log_id: z.coerce.number().int() }) }, async ({ actor, params }) => ({ id: params.log_id, result: await reports.log(actor, params.pk, params.log_id) }));
}
