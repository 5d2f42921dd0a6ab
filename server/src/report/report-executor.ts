import { randomUUID } from 'node:crypto';
import { alertTriggered, alertValue, decideRun, errorNoticeDue, fillMessage, REPORT_MESSAGES, REPORT_STATES, type ChartDataQueryResult, type ValidatorConfig } from '@meridian/contracts';
import type { ChartDataService } from '../chart-data/chart-data.service';
import type { Config } from '../config';
import type { DatabaseService } from '../database/database.service';
import type { MetadataDb } from '../db/database';
import type { Logger } from '../logger';
import type { QueryRuntime } from '../results/query-runtime';
import type { ScreenshotService } from '../screenshot/screenshot.service';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { ReportContent, ReportNotifier } from './notifications';
import type { ReportRow, ReportService } from './report.service';

/** A TEXT report shows at most this many rows (the rest are in the chart). */
const TEXT_MAX_ROWS = 50;
/** Error notices to owners are logged under this message, so the grace period of the next one can be read. */
const ERROR_NOTICE_SENT = 'Notification sent with error';

class RunError extends Error {}

/**
 * Runs `work` with a signal that is aborted when the working timeout passes: the run then ends as an error at once,
 * and the abort stops its query, closes its page and keeps anything from being sent late.
 */
const withWorkingTimeout = async <T>(work: (signal: AbortSignal) => Promise<T>, seconds: number | null): Promise<T> => {
  const controller = new AbortController();
  if (!seconds) return work(controller.signal);
  let timer: NodeJS.Timeout;
  const expired = new Promise<never>((_, fail) => {
    timer = setTimeout(() => {
      controller.abort(new RunError(REPORT_MESSAGES.workingTimeout));
      fail(new RunError(REPORT_MESSAGES.workingTimeout));
    }, seconds * 1000);
  });
  return Promise.race([work(controller.signal), expired]).finally(() => clearTimeout(timer));
};

/**
 * Runs one due report or alert (Superset's AsyncExecuteReportScheduleCommand): decides from the last state,
 * evaluates an alert's SQL on its database, makes the content as the report's executor (its creator while an
 * owner, else its first owner), sends it to every recipient, and logs each state with the run's uuid.
 */
export class ReportExecutor {
  /** Where the renderer reaches this server (the listening address, unless WEBDRIVER_BASEURL says otherwise). */
  baseUrl: string;

  constructor(private readonly deps: {
    db: MetadataDb; config: Config; logger: Logger; security: SecurityService; reports: ReportService; chartData: ChartDataService;
    screenshots: ScreenshotService; databases: DatabaseService; runtime: QueryRuntime; notifier: ReportNotifier;
  }) {
    this.baseUrl = deps.config.reports.webdriverBaseUrl ?? `http://127.0.0.1:${deps.config.port}`;
  }

  /**
   * A queued run whose worker stopped before it finished: whether it sent anything is unknown, so it
   * is not run again; it is logged as an error and the report leaves its working state.
   */
  async abandon(id: number, scheduled: Date): Promise<void> {
    const now = new Date();
    const message = 'The worker running this report stopped before it finished. It runs again at its next scheduled time.';
    await this.deps.db.insertInto('report_execution_log').values({ uuid: randomUUID(), scheduled_dttm: scheduled, start_dttm: now, end_dttm: now, state: REPORT_STATES.ERROR, report_schedule_id: id, error_message: message }).execute();
    await this.deps.db.updateTable('report_schedule').set({ last_state: REPORT_STATES.ERROR, last_eval_dttm: now }).where('id', '=', id).execute();
  }

  async execute(id: number, scheduled: Date, now = new Date()): Promise<string> {
    const report = await this.deps.reports.row(id);
    const uuid = randomUUID();
    const start = now;
    const log = async (state: string, extra: { error_message?: string | null; value?: number | null; value_row_json?: string | null } = {}) => {
      await this.deps.db.insertInto('report_execution_log').values({ uuid, scheduled_dttm: scheduled, start_dttm: start, end_dttm: new Date(), state, report_schedule_id: id, ...extra }).execute();
    };
    const setState = async (state: string, extra: { last_value?: number | null; last_value_row_json?: string | null } = {}) => {
      await this.deps.db.updateTable('report_schedule').set({ last_state: state, last_eval_dttm: new Date(), ...extra }).where('id', '=', id).execute();
    };
    const lastLog = (where: { state: string; error_message?: string }) => {
      let q = this.deps.db.selectFrom('report_execution_log').select(['start_dttm', 'end_dttm']).where('report_schedule_id', '=', id).where('state', '=', where.state);
      if (where.error_message) q = q.where('error_message', '=', where.error_message);
      return q.orderBy('end_dttm', 'desc').limit(1).executeTakeFirst();
    };

    const [working, success] = await Promise.all([
      report.last_state === REPORT_STATES.WORKING ? lastLog({ state: REPORT_STATES.WORKING }) : undefined,
      report.type === 'Alert' ? lastLog({ state: REPORT_STATES.SUCCESS }) : undefined,
    ]);
    const decision = decideRun({ ...report, working_since: working?.start_dttm ?? null, last_success_dttm: success?.end_dttm ?? null }, now);
    if (decision.kind === 'still-working') {
      await log(REPORT_STATES.WORKING, { error_message: REPORT_MESSAGES.previousWorking });
      return REPORT_STATES.WORKING;
    }
    if (decision.kind === 'working-timeout') {
      await log(REPORT_STATES.ERROR, { error_message: REPORT_MESSAGES.workingTimeout });
      await setState(REPORT_STATES.ERROR);
      return REPORT_STATES.ERROR;
    }
    if (decision.kind === 'grace') {
      await log(REPORT_STATES.GRACE);
      await setState(REPORT_STATES.GRACE);
      return REPORT_STATES.GRACE;
    }

    await setState(REPORT_STATES.WORKING);
    await log(REPORT_STATES.WORKING);
    try {
      const outcome = await withWorkingTimeout((signal) => this.run(report, signal), report.working_timeout);
      if (outcome.state === REPORT_STATES.NOOP) {
        await log(REPORT_STATES.NOOP, { value: outcome.value, value_row_json: outcome.valueRow });
        await setState(REPORT_STATES.NOOP, { last_value: outcome.value, last_value_row_json: outcome.valueRow });
        return REPORT_STATES.NOOP;
      }
      if (outcome.failures.length) throw new RunError(fillMessage(REPORT_MESSAGES.notificationFailed, outcome.failures.join('; ')));
      await log(REPORT_STATES.SUCCESS, { value: outcome.value, value_row_json: outcome.valueRow });
      await setState(REPORT_STATES.SUCCESS, { last_value: outcome.value, last_value_row_json: outcome.valueRow });
      return REPORT_STATES.SUCCESS;
    } catch (error) {
      const message = error instanceof RunError ? error.message : `${(error as Error).message}`;
      this.deps.logger.warn({ err: error, report: id }, 'report run failed');
      await log(REPORT_STATES.ERROR, { error_message: message });
      await setState(REPORT_STATES.ERROR);
      await this.noticeOwners(report, message, lastLog, log).catch((e) => this.deps.logger.warn({ err: e, report: id }, 'report error notice failed'));
      return REPORT_STATES.ERROR;
    }
  }

  /** Evaluates the alert (if one), makes the content and sends it; each recipient's failure is collected, not thrown. */
  private async run(report: ReportRow, signal: AbortSignal): Promise<{ state: string; value: number | null; valueRow: string | null; failures: string[] }> {
    let value: number | null = null;
    let valueRow: string | null = null;
    if (report.type === 'Alert') {
      const evaluated = await this.evaluate(report, signal);
      value = evaluated.value;
      valueRow = evaluated.row;
      let config: ValidatorConfig | null = null;
      try {
        config = report.validator_config_json ? (JSON.parse(report.validator_config_json) as ValidatorConfig) : null;
      } catch {
        throw new RunError(REPORT_MESSAGES.alertValidatorConfig);
      }
      let fired: boolean;
      try {
        fired = alertTriggered(report.validator_type, config, value);
      } catch (error) {
        throw new RunError((error as Error).message);
      }
      if (!fired) return { state: REPORT_STATES.NOOP, value, valueRow, failures: [] };
    }
    const executor = await this.executor(report);
    const content = await this.content(report, executor, signal);
    if (report.type === 'Alert') content.alertValue = value;
    const recipients = await this.deps.reports.recipientsOf(report.id);
    // Past the working timeout the run is already logged as an error: nothing goes out late.
    signal.throwIfAborted();
    const failures: string[] = [];
    // Every recipient is tried; one that fails does not keep the report from the others.
    await Promise.all(
      recipients.map(async (r) => {
        const config = JSON.parse(r.recipient_config_json ?? '{}') as { target?: string };
        try {
          await this.deps.notifier.send({ type: r.type, config }, content);
        } catch (error) {
          failures.push(`${r.type} ${config.target ?? ''}: ${(error as Error).message}`);
        }
      }),
    );
    return { state: REPORT_STATES.SUCCESS, value, valueRow, failures };
  }

  /** The alert's SQL, read-only, at most two rows read (one is expected). */
  private async evaluate(report: ReportRow, signal: AbortSignal): Promise<{ value: number | null; row: string | null }> {
    if (!report.database_id || !report.sql) throw new RunError(REPORT_MESSAGES.databaseRequired);
    const db = await this.deps.db.selectFrom('dbs').select(['sqlalchemy_uri', 'password_encrypted']).where('id', '=', report.database_id).executeTakeFirst();
    if (!db) throw new RunError(REPORT_MESSAGES.alertQueryError);
    const { result, rowsJson } = await this.deps.runtime.runAndRead({
      ...this.deps.databases.target(db, null, null),
      sql: report.sql, limit: 2, allowDml: false, timeoutMs: (report.working_timeout || 3600) * 1000, inlineMaxBytes: 1024 * 1024,
    }, signal);
    if (!result.ok) throw new RunError(`${REPORT_MESSAGES.alertQueryError} ${result.errors.map((e) => e.message).join('; ')}`);
    const objects = JSON.parse(rowsJson) as Record<string, unknown>[];
    const names = result.columns.map((c) => c.column_name);
    const read = alertValue(objects.map((o) => names.map((n) => o[n])), report.validator_type);
    if (!read.ok) throw new RunError(read.message);
    return { value: read.value, row: objects[0] ? JSON.stringify(objects[0]) : null };
  }

  /** Superset's ALERT_REPORTS_EXECUTE_AS (owner): the creator while an owner, else the first owner. */
  private async executor(report: ReportRow): Promise<Actor> {
    const owners = (await this.deps.db.selectFrom('report_schedule_user').select('user_id').where('report_schedule_id', '=', report.id).orderBy('id').execute()).map((o) => o.user_id);
    const userId = report.created_by_fk && owners.includes(report.created_by_fk) ? report.created_by_fk : (owners[0] ?? report.created_by_fk);
    const actor = userId ? await this.deps.security.actorFor(userId) : null;
    if (!actor) throw new RunError('The report has no active owner to run it as');
    return actor;
  }

  private async content(report: ReportRow, actor: Actor, signal: AbortSignal): Promise<ReportContent> {
    const friendly = this.deps.config.reports.userFriendlyBaseUrl;
    const kind = report.chart_id ? 'chart' : 'dashboard';
    const targetId = (report.chart_id ?? report.dashboard_id)!;
    const content: ReportContent = {
      name: report.name,
      description: report.description,
      subject: report.email_subject || `[Meridian] ${report.name}`,
      url: kind === 'chart' ? `${friendly}/explore/?slice_id=${targetId}` : `${friendly}/superset/dashboard/${targetId}/`,
    };
    const format = report.report_format ?? 'PNG';
    if (format === 'PNG' || format === 'PDF') {
      try {
        const picture = await this.deps.screenshots.draw(actor, kind, targetId, this.baseUrl, { format: format === 'PDF' ? 'pdf' : 'png', width: report.custom_width, signal });
        if (format === 'PNG') content.images = [picture];
        else content.files = [{ filename: `${report.name}.pdf`, contentType: 'application/pdf', content: picture }];
      } catch (error) {
        const timedOut = /timeout/i.test((error as Error).message);
        throw new RunError(`${timedOut ? REPORT_MESSAGES.screenshotTimeout : REPORT_MESSAGES.screenshotFailed} ${(error as Error).message.split('\n')[0]}`);
      }
      return content;
    }
    if (!report.chart_id) throw new RunError(`${format === 'CSV' ? REPORT_MESSAGES.csvFailed : REPORT_MESSAGES.dataFailed} A dashboard is sent as PNG or PDF.`);
    const chart = await this.deps.db.selectFrom('slices').select(['id', 'datasource_id', 'params', 'query_context']).where('id', '=', report.chart_id).executeTakeFirst();
    if (!chart) throw new RunError(REPORT_MESSAGES.dataFailed);
    try {
      if (format === 'CSV') {
        const answer = await this.deps.chartData.data(actor, this.deps.chartData.chartRequest(chart, { resultFormat: 'csv', force: true }), { sliceId: chart.id, allowAsync: false });
        if (answer.kind !== 'file') throw new Error('no file');
        content.files = [{ filename: `${report.name}.csv`, contentType: 'text/csv', content: Buffer.from(answer.body) }];
      } else {
        const [first] = (await this.deps.chartData.results(actor, this.deps.chartData.chartRequest(chart, { force: true }), chart.id)) as ChartDataQueryResult[];
        const columns = first?.colnames ?? [];
        content.table = { columns, rows: (first?.data ?? []).slice(0, TEXT_MAX_ROWS).map((row) => columns.map((c) => (row as Record<string, unknown>)[c])) };
      }
    } catch (error) {
      if (error instanceof RunError) throw error;
      throw new RunError(`${format === 'CSV' ? REPORT_MESSAGES.csvFailed : REPORT_MESSAGES.dataFailed} ${(error as Error).message}`);
    }
    return content;
  }

  /** Tells the owners by email that the run failed, at most once per grace period. */
  private async noticeOwners(report: ReportRow, message: string, lastLog: (w: { state: string; error_message?: string }) => Promise<{ end_dttm: Date | null } | undefined>, log: (state: string, extra: { error_message: string }) => Promise<void>): Promise<void> {
    const last = await lastLog({ state: REPORT_STATES.ERROR, error_message: ERROR_NOTICE_SENT });
    if (!errorNoticeDue(last?.end_dttm ?? null, report.grace_period, new Date())) return;
    const owners = await this.deps.db.selectFrom('report_schedule_user as o').innerJoin('ab_user as u', 'u.id', 'o.user_id').select('u.email').where('o.report_schedule_id', '=', report.id).execute();
    const to = owners.map((o) => o.email).filter(Boolean).join(',');
    if (!to) return;
    const friendly = this.deps.config.reports.userFriendlyBaseUrl;
    await this.deps.notifier.send({ type: 'Email', config: { target: to } }, { name: report.name, description: report.description, subject: `[Meridian] ${report.name} failed`, url: `${friendly}/report/list/`, error: message });
    await log(REPORT_STATES.ERROR, { error_message: ERROR_NOTICE_SENT });
  }
}
