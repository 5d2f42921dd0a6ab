import { CronExpressionParser } from 'cron-parser';
import { sql } from 'kysely';
import { describeCrontab, REPORT_DEFAULTS, REPORT_MESSAGES, reportFormatError, validateCrontab, type ListQuery, type ListResult, type ReportCreate, type ReportRecipient, type ReportUpdate } from '@meridian/contracts';
import { runListQuery } from '../common/list-query';
import { ownersByObject } from '../common/owners';
import type { ChartService } from '../chart/chart.service';
import type { DashboardService } from '../dashboard/dashboard.service';
import type { DatabaseService } from '../database/database.service';
import { auditPerson } from '../database/humanize';
import { humanizedDelta, pythonIsoformat } from '@meridian/contracts/rules/dates';
import type { MetadataDb } from '../db/database';
import { Forbidden, NotFound, Unprocessable } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';

const COLUMNS = {
  id: 'report_schedule.id',
  name: 'report_schedule.name',
  type: 'report_schedule.type',
  active: 'report_schedule.active',
  crontab: 'report_schedule.crontab',
  description: 'report_schedule.description',
  creation_method: 'report_schedule.creation_method',
  chart_id: 'report_schedule.chart_id',
  dashboard_id: 'report_schedule.dashboard_id',
  database_id: 'report_schedule.database_id',
  last_state: 'report_schedule.last_state',
  last_eval_dttm: 'report_schedule.last_eval_dttm',
  timezone: 'report_schedule.timezone',
  created_on: 'report_schedule.created_on',
  changed_on: 'report_schedule.changed_on',
  changed_on_delta_humanized: 'report_schedule.changed_on',
  created_by: 'report_schedule.created_by_fk',
  changed_by: 'report_schedule.changed_by_fk',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const REPORT_ORDER_COLUMNS = Object.keys(COLUMNS);
const LOG_COLUMNS = {
  id: 'id', state: 'state', scheduled_dttm: 'scheduled_dttm', start_dttm: 'start_dttm', end_dttm: 'end_dttm', value: 'value', error_message: 'error_message', uuid: 'uuid',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const REPORT_LOG_ORDER_COLUMNS = Object.keys(LOG_COLUMNS);

/** Whether a crontab reads as a schedule: five fields or a macro (the form's rule), that cron-parser can run. */
export function crontabValid(crontab: string): boolean {
  if (validateCrontab(crontab) !== false) return false;
  try {
    CronExpressionParser.parse(crontab);
    return true;
  } catch {
    return false;
  }
}


const parseJsonText = (text: string | null | undefined) => {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export type ReportRow = Awaited<ReturnType<ReportService['row']>>;

/**
 * Reports and alerts (Superset's ReportScheduleRestApi): `can_read` / `can_write` on `ReportSchedule`. A user sees
 * the schedules they created or own (admins see all), and changes only those they own.
 */
export class ReportService {
  constructor(private readonly deps: { db: MetadataDb; security: SecurityService; charts: ChartService; dashboards: DashboardService; databases: DatabaseService }) {}

  private base() {
    return this.deps.db
      .selectFrom('report_schedule')
      .leftJoin('ab_user as cb', 'cb.id', 'report_schedule.created_by_fk')
      .leftJoin('ab_user as mb', 'mb.id', 'report_schedule.changed_by_fk')
      .selectAll('report_schedule')
      .select(['cb.first_name as cb_first', 'cb.last_name as cb_last', 'mb.first_name as mb_first', 'mb.last_name as mb_last']);
  }

  /** Superset's ReportScheduleFilter: a non-admin sees what they created or own. */
  private visible(actor: Actor) {
    let q = this.base();
    if (!this.deps.security.isAdmin(actor)) {
      q = q.where((eb) =>
        eb.or([
          eb('report_schedule.created_by_fk', '=', actor.userId),
          eb.exists(eb.selectFrom('report_schedule_user as o').select('o.id').whereRef('o.report_schedule_id', '=', 'report_schedule.id').where('o.user_id', '=', actor.userId)),
        ]),
      );
    }
    return q;
  }

  private async recipients(ids: number[]) {
    if (!ids.length) return new Map<number, Array<{ id: number; type: string; recipient_config_json: string | null }>>();
    const rows = await this.deps.db.selectFrom('report_recipient').selectAll().where('report_schedule_id', 'in', ids).orderBy('id').execute();
    const map = new Map<number, Array<{ id: number; type: string; recipient_config_json: string | null }>>();
    for (const r of rows) map.set(r.report_schedule_id, [...(map.get(r.report_schedule_id) ?? []), { id: r.id, type: r.type, recipient_config_json: r.recipient_config_json }]);
    return map;
  }

  async list(actor: Actor | null, query: ListQuery): Promise<ListResult<Record<string, unknown>>> {
    this.deps.security.require(actor, 'can_read', 'ReportSchedule');
    const { count, rows } = await runListQuery(this.visible(actor), query, {
      columns: COLUMNS,
      custom: {
        'owners:rel_m_m': (eb, v) => eb.exists(eb.selectFrom('report_schedule_user as f').select('f.id').whereRef('f.report_schedule_id', '=', 'report_schedule.id').where('f.user_id', '=', Number(v))),
      },
      idColumn: 'report_schedule.id',
      defaultOrder: ['name', 'asc'],
    });
    const ids = rows.map((r) => r.id);
    const [owners, recipients] = await Promise.all([ownersByObject(this.deps.db, 'report', ids), this.recipients(ids)]);
    const result = rows.map((r) => ({
      id: r.id,
      active: r.active,
      name: r.name,
      type: r.type,
      description: r.description,
      crontab: r.crontab,
      crontab_humanized: describeCrontab(r.crontab) ?? r.crontab,
      timezone: r.timezone,
      creation_method: r.creation_method,
      chart_id: r.chart_id,
      dashboard_id: r.dashboard_id,
      database_id: r.database_id,
      last_eval_dttm: r.last_eval_dttm ? pythonIsoformat(r.last_eval_dttm) : null,
      last_state: r.last_state,
      extra: parseJsonText(r.extra_json),
      created_on: pythonIsoformat(r.created_on),
      changed_on: pythonIsoformat(r.changed_on),
      changed_on_delta_humanized: humanizedDelta(r.changed_on),
      created_by: auditPerson(r.created_by_fk, r.cb_first, r.cb_last),
      changed_by: auditPerson(r.changed_by_fk, r.mb_first, r.mb_last),
      owners: owners.get(r.id) ?? [],
      recipients: (recipients.get(r.id) ?? []).map(({ id, type }) => ({ id, type })),
    }));
    return { count, ids, result };
  }

  /** The stored schedule, for the executor (no permission check). */
  async row(id: number) {
    const row = await this.base().where('report_schedule.id', '=', id).executeTakeFirst();
    if (!row) throw new NotFound(REPORT_MESSAGES.notFound);
    return row;
  }

  async recipientsOf(id: number) {
    return (await this.recipients([id])).get(id) ?? [];
  }

  /** `GET /api/v1/report/{pk}` (Superset's show columns). */
  async get(actor: Actor | null, id: number) {
    this.deps.security.require(actor, 'can_read', 'ReportSchedule');
    const r = await this.visible(actor).where('report_schedule.id', '=', id).executeTakeFirst();
    // Flask-AppBuilder's get_headless: 'Not found', as for every other resource.
    if (!r) throw new NotFound();
    const db = this.deps.db;
    const [owners, recipients, chart, dashboard, database] = await Promise.all([
      ownersByObject(this.deps.db, 'report', [id]),
      this.recipients([id]),
      r.chart_id ? db.selectFrom('slices').select(['id', 'slice_name', 'viz_type']).where('id', '=', r.chart_id).executeTakeFirst() : null,
      r.dashboard_id ? db.selectFrom('dashboards').select(['id', 'dashboard_title']).where('id', '=', r.dashboard_id).executeTakeFirst() : null,
      r.database_id ? db.selectFrom('dbs').select(['id', 'database_name']).where('id', '=', r.database_id).executeTakeFirst() : null,
    ]);
    return {
      id: r.id,
      active: r.active,
      name: r.name,
      type: r.type,
      description: r.description,
      context_markdown: r.context_markdown,
      crontab: r.crontab,
      timezone: r.timezone,
      creation_method: r.creation_method,
      report_format: r.report_format,
      chart: chart ?? null,
      dashboard: dashboard ?? null,
      database: database ?? null,
      sql: r.sql,
      validator_type: r.validator_type,
      validator_config_json: r.validator_config_json,
      working_timeout: r.working_timeout,
      grace_period: r.grace_period,
      log_retention: r.log_retention,
      force_screenshot: r.force_screenshot,
      custom_width: r.custom_width,
      email_subject: r.email_subject,
      extra: parseJsonText(r.extra_json),
      last_eval_dttm: r.last_eval_dttm ? pythonIsoformat(r.last_eval_dttm) : null,
      last_state: r.last_state,
      last_value: r.last_value,
      last_value_row_json: r.last_value_row_json,
      owners: owners.get(id) ?? [],
      recipients: recipients.get(id) ?? [],
    };
  }

  /** Superset's ReportSchedule{Create,Update}Command validation, as 422 field errors. */
  private async validate(actor: Actor, input: ReportUpdate, current: ReportRow | null): Promise<void> {
    const errors: Record<string, string[]> = {};
    const merged = {
      type: input.type ?? current?.type,
      name: input.name ?? current?.name,
      creation_method: input.creation_method !== undefined ? input.creation_method : current?.creation_method,
      chart: input.chart !== undefined ? input.chart : current?.chart_id,
      dashboard: input.dashboard !== undefined ? input.dashboard : current?.dashboard_id,
      database: input.database !== undefined ? input.database : current?.database_id,
      sql: input.sql !== undefined ? input.sql : current?.sql,
    };
    if (input.crontab !== undefined && !crontabValid(input.crontab)) errors.crontab = [REPORT_MESSAGES.crontabInvalid];
    if (merged.name && (input.name !== undefined || input.type !== undefined)) {
      const clash = await this.deps.db.selectFrom('report_schedule').select('id').where('name', '=', merged.name).where('type', '=', merged.type!).where('id', '!=', current?.id ?? -1).executeTakeFirst();
      if (clash) errors.name = [REPORT_MESSAGES.nameUnique];
    }
    if (merged.chart && merged.dashboard) errors.chart = [REPORT_MESSAGES.chartOrDashboard];
    // What is sent, for a report and for an alert that fires alike.
    else if (!merged.chart && !merged.dashboard) errors.chart = [REPORT_MESSAGES.chartOrDashboardRequired];
    else if (input.report_format !== undefined || input.chart !== undefined || input.dashboard !== undefined) {
      const formatError = reportFormatError(merged.chart ? 'chart' : 'dashboard', input.report_format ?? current?.report_format ?? 'PNG');
      if (formatError) errors.report_format = [formatError];
    }
    if (merged.type === 'Alert') {
      if (!merged.database) errors.database = [REPORT_MESSAGES.databaseRequired];
      if (!merged.sql?.trim()) errors.sql = [REPORT_MESSAGES.sqlRequired];
    }
    const exists = async (what: 'chart' | 'dashboard' | 'database', id: number) => {
      try {
        if (what === 'chart') await this.deps.charts.get(actor, id);
        else if (what === 'dashboard') await this.deps.dashboards.get(actor, id);
        else await this.deps.databases.getAccessible(actor, id);
      } catch (error) {
        if (error instanceof NotFound || error instanceof Forbidden) errors[what] = [`${what[0].toUpperCase()}${what.slice(1)} does not exist`];
        else throw error;
      }
    };
    if (input.chart) await exists('chart', input.chart);
    if (input.dashboard) await exists('dashboard', input.dashboard);
    // Checked for a report too (Superset checks an alert's only): a database stored must exist, or the write fails.
    if (input.database) await exists('database', input.database);
    // One header report per user and chart or dashboard (Superset's validate_unique_creation_method).
    if (!current && (merged.creation_method === 'charts' || merged.creation_method === 'dashboards')) {
      const column = merged.creation_method === 'charts' ? 'chart_id' : 'dashboard_id';
      const target = merged.creation_method === 'charts' ? merged.chart : merged.dashboard;
      if (target) {
        const attached = await this.deps.db.selectFrom('report_schedule').select('id').where(column, '=', target).where('created_by_fk', '=', actor.userId).where('creation_method', '=', merged.creation_method).executeTakeFirst();
        if (attached) errors.creation_method = [REPORT_MESSAGES.alreadyAttached];
      }
    }
    if (input.owners?.length) {
      const found = await this.deps.db.selectFrom('ab_user').select('id').where('id', 'in', input.owners).execute();
      if (found.length !== new Set(input.owners).size) errors.owners = ['Owners are invalid'];
    }
    if (Object.keys(errors).length) throw new Unprocessable(errors);
  }

  private columns(input: ReportUpdate) {
    const set: Record<string, unknown> = {};
    const copy = ['name', 'description', 'context_markdown', 'active', 'crontab', 'timezone', 'creation_method', 'report_format', 'sql', 'validator_type', 'working_timeout', 'grace_period', 'log_retention', 'force_screenshot', 'custom_width', 'email_subject', 'type'] as const;
    for (const key of copy) if (input[key] !== undefined) set[key] = input[key];
    if (input.chart !== undefined) set.chart_id = input.chart;
    if (input.dashboard !== undefined) set.dashboard_id = input.dashboard;
    if (input.database !== undefined) set.database_id = input.database;
    if (input.validator_config_json !== undefined) set.validator_config_json = typeof input.validator_config_json === 'string' || input.validator_config_json === null ? input.validator_config_json : JSON.stringify(input.validator_config_json);
    if (input.extra !== undefined) set.extra_json = JSON.stringify(input.extra);
    return set;
  }

  private async writeLinks(id: number, owners: number[] | undefined, recipients: ReportRecipient[] | undefined) {
    const db = this.deps.db;
    if (owners) {
      await db.deleteFrom('report_schedule_user').where('report_schedule_id', '=', id).execute();
      if (owners.length) await db.insertInto('report_schedule_user').values([...new Set(owners)].map((user_id) => ({ user_id, report_schedule_id: id }))).execute();
    }
    if (recipients) {
      await db.deleteFrom('report_recipient').where('report_schedule_id', '=', id).execute();
      if (recipients.length) await db.insertInto('report_recipient').values(recipients.map((r) => ({ type: r.type, recipient_config_json: JSON.stringify(r.recipient_config_json ?? {}), report_schedule_id: id }))).execute();
    }
  }

  async create(actor: Actor | null, input: ReportCreate) {
    this.deps.security.require(actor, 'can_write', 'ReportSchedule');
    const withDefaults: ReportCreate = { creation_method: 'alerts_reports', ...input };
    await this.validate(actor, withDefaults, null);
    const { id } = await this.deps.db
      .insertInto('report_schedule')
      .values({
        grace_period: REPORT_DEFAULTS.grace_period,
        working_timeout: REPORT_DEFAULTS.working_timeout,
        log_retention: REPORT_DEFAULTS.log_retention,
        ...(this.columns(withDefaults) as { name: string; type: string; crontab: string }),
        created_by_fk: actor.userId,
        changed_by_fk: actor.userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.writeLinks(id, input.owners?.length ? input.owners : [actor.userId], input.recipients ?? []);
    return id;
  }

  /** Owners (and admins) change a schedule; others get Superset's 403. */
  private async writable(actor: Actor, id: number): Promise<ReportRow> {
    const row = await this.base().where('report_schedule.id', '=', id).executeTakeFirst();
    // Superset's put and delete answer a missing schedule with Flask-AppBuilder's response_404.
    if (!row) throw new NotFound();
    if (this.deps.security.isAdmin(actor)) return row;
    const owner = await this.deps.db.selectFrom('report_schedule_user').select('id').where('report_schedule_id', '=', id).where('user_id', '=', actor.userId).executeTakeFirst();
    if (!owner && row.created_by_fk !== actor.userId) throw new Forbidden('Changing this report is forbidden');
    return row;
  }

  async update(actor: Actor | null, id: number, input: ReportUpdate) {
    this.deps.security.require(actor, 'can_write', 'ReportSchedule');
    const current = await this.writable(actor, id);
    await this.validate(actor, input, current);
    const set = this.columns(input);
    // A schedule switched off and on again starts afresh (Superset resets last_state on re-activation).
    if (input.active === true && !current.active) set.last_state = 'Not triggered';
    await this.deps.db.updateTable('report_schedule').set({ ...set, changed_by_fk: actor.userId, changed_on: new Date() }).where('id', '=', id).execute();
    await this.writeLinks(id, input.owners, input.recipients);
  }

  /** Deletes the schedules with their recipients and logs; all must exist and be the caller's (nothing deleted otherwise). */
  async delete(actor: Actor | null, ids: number[]): Promise<number> {
    this.deps.security.require(actor, 'can_write', 'ReportSchedule');
    for (const id of new Set(ids)) await this.writable(actor, id);
    await this.deps.db.deleteFrom('report_schedule').where('id', 'in', ids).execute();
    return new Set(ids).size;
  }

  /** `GET /api/v1/report/{pk}/log/`: the schedule's execution log, newest first by default. */
  async logs(actor: Actor | null, id: number, query: ListQuery) {
    await this.get(actor, id);
    const base = this.deps.db.selectFrom('report_execution_log').selectAll().where('report_schedule_id', '=', id);
    const { count, rows } = await runListQuery(base, query, { columns: LOG_COLUMNS, idColumn: 'id', defaultOrder: ['end_dttm', 'desc'] });
    const result = rows.map((r) => this.logView(r));
    return { count, ids: result.map((r) => r.id), result };
  }

  async log(actor: Actor | null, id: number, logId: number) {
    await this.get(actor, id);
    const row = await this.deps.db.selectFrom('report_execution_log').selectAll().where('report_schedule_id', '=', id).where('id', '=', logId).executeTakeFirst();
    if (!row) throw new NotFound();
    return this.logView(row);
  }

  private logView(r: { id: number; uuid: string; scheduled_dttm: Date; start_dttm: Date | null; end_dttm: Date | null; value: number | null; value_row_json: string | null; state: string; error_message: string | null }) {
    return {
      id: r.id,
      uuid: r.uuid,
      scheduled_dttm: pythonIsoformat(r.scheduled_dttm),
      start_dttm: r.start_dttm ? pythonIsoformat(r.start_dttm) : null,
      end_dttm: r.end_dttm ? pythonIsoformat(r.end_dttm) : null,
      value: r.value === null ? null : Number(r.value),
      value_row_json: r.value_row_json,
      state: r.state,
      error_message: r.error_message,
    };
  }

  /** The active schedules the scheduler looks at. */
  async activeSchedules() {
    return this.deps.db.selectFrom('report_schedule').select(['id', 'crontab', 'timezone']).where('active', '=', true).execute();
  }

  /** Logs older than each schedule's log_retention (days) go (Superset's prune_log task). */
  async pruneLogs(now: Date): Promise<void> {
    await this.deps.db
      .deleteFrom('report_execution_log')
      .where((eb) =>
        eb.exists(
          eb.selectFrom('report_schedule as s').select('s.id')
            .whereRef('s.id', '=', 'report_execution_log.report_schedule_id')
            .where('s.log_retention', 'is not', null)
            .where(sql<boolean>`report_execution_log.end_dttm < ${now}::timestamptz - make_interval(days => s.log_retention)`),
        ),
      )
      .execute();
  }
}
