import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/src/trpc/app-router';

type Outputs = inferRouterOutputs<AppRouter>['report'];
/** A report or alert as `GET /api/v1/report/{pk}` answers it. */
export type ReportDetail = Outputs['get'];
/** A row of `GET /api/v1/report/`. */
export interface ReportListItem {
  id: number;
  name: string;
  type: 'Alert' | 'Report';
  active: boolean;
  description: string | null;
  crontab: string;
  crontab_humanized: string;
  timezone: string;
  creation_method: string | null;
  chart_id: number | null;
  dashboard_id: number | null;
  last_state: string | null;
  last_eval_dttm: string | null;
  changed_on: string;
  changed_on_delta_humanized: string;
  created_by: { first_name: string; last_name: string } | null;
  owners: Array<{ id: number; first_name: string; last_name: string }>;
  recipients: Array<{ id: number; type: string }>;
}
/** One row of a report's execution log. */
export type ReportLogEntry = Outputs['logs']['result'][number];

export const REPORT_ENDPOINT = '/api/v1/report/';
