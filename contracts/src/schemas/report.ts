import { z } from 'zod';

/** Superset's ReportScheduleType. */
export const REPORT_TYPES = ['Alert', 'Report'] as const;
/** Superset's ReportCreationMethod: from a chart's or a dashboard's header, or from the Alerts & reports list. */
export const REPORT_CREATION_METHODS = ['charts', 'dashboards', 'alerts_reports'] as const;
/** Superset's ReportDataFormat. */
export const REPORT_FORMATS = ['PNG', 'PDF', 'CSV', 'TEXT'] as const;
/** Superset's ReportScheduleValidatorType. */
export const REPORT_VALIDATOR_TYPES = ['not null', 'operator'] as const;
/** Superset's alert operators (ReportScheduleValidatorConfig's `op`). */
export const ALERT_OPERATORS = ['<', '<=', '>', '>=', '==', '!='] as const;
/**
 * Where a report goes: Superset's Email and Slack (a Slack incoming-webhook address here, as no Slack app is
 * configured), and Webhook (any address that takes a JSON POST).
 */
export const RECIPIENT_TYPES = ['Email', 'Slack', 'SlackV2', 'Webhook'] as const;

/** Superset's ReportState values, as stored in `last_state` and in each execution log row. */
export const REPORT_STATES = { SUCCESS: 'Success', WORKING: 'Working', ERROR: 'Error', NOOP: 'Not triggered', GRACE: 'On Grace' } as const;
export type ReportState = (typeof REPORT_STATES)[keyof typeof REPORT_STATES];

/** Superset's ReportSchedule defaults: four hours of grace, an hour's working timeout, 90 days of logs. */
export const REPORT_DEFAULTS = { grace_period: 60 * 60 * 4, working_timeout: 60 * 60, log_retention: 90, timezone: 'UTC' } as const;

const isTimezone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

export const ReportRecipientSchema = z.object({
  type: z.enum(RECIPIENT_TYPES),
  recipient_config_json: z
    .object({ target: z.string().trim().min(1), ccTarget: z.string().optional(), bccTarget: z.string().optional() })
    .loose()
    .optional(),
});
export type ReportRecipient = z.infer<typeof ReportRecipientSchema>;

export const ValidatorConfigSchema = z.object({ op: z.enum(ALERT_OPERATORS).optional(), threshold: z.number().optional() }).loose();
export type ValidatorConfig = z.infer<typeof ValidatorConfigSchema>;

const nonNegative = z.number().int().min(0);
const common = {
  name: z.string().trim().min(1).max(150),
  description: z.string().nullish(),
  context_markdown: z.string().nullish(),
  active: z.boolean().optional(),
  crontab: z.string().trim().min(1).max(1000),
  timezone: z.string().refine(isTimezone, { message: 'Not a valid time zone' }).optional(),
  chart: z.number().int().nullish(),
  dashboard: z.number().int().nullish(),
  database: z.number().int().nullish(),
  sql: z.string().nullish(),
  owners: z.array(z.number().int()).optional(),
  recipients: z.array(ReportRecipientSchema).optional(),
  report_format: z.enum(REPORT_FORMATS).optional(),
  validator_type: z.enum(REPORT_VALIDATOR_TYPES).nullish(),
  // Superset's schema takes an object; older clients send it as a JSON string.
  validator_config_json: z.union([ValidatorConfigSchema, z.string()]).nullish(),
  working_timeout: nonNegative.nullish(),
  grace_period: nonNegative.nullish(),
  log_retention: nonNegative.nullish(),
  force_screenshot: z.boolean().optional(),
  custom_width: z.number().int().min(600).max(2400).nullish(),
  email_subject: z.string().max(255).nullish(),
  extra: z.record(z.string(), z.unknown()).optional(),
  selected_tabs: z.array(z.number().int()).nullish(),
};

/** `POST /api/v1/report/` (Superset's ReportSchedulePostSchema). */
export const ReportCreateSchema = z.object({ ...common, type: z.enum(REPORT_TYPES), creation_method: z.enum(REPORT_CREATION_METHODS).optional() });
export type ReportCreate = z.infer<typeof ReportCreateSchema>;

/** `PUT /api/v1/report/{pk}`: any field; `active` alone toggles the report. */
export const ReportUpdateSchema = z.object({ ...common, type: z.enum(REPORT_TYPES), creation_method: z.enum(REPORT_CREATION_METHODS).nullish() }).partial();
export type ReportUpdate = z.infer<typeof ReportUpdateSchema>;
