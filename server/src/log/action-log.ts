import { metadataId } from '../common/ids';
import type { LogEntry } from './log.repository';

/** Calls sent with a writing method that only read (answers, checks, estimates): not in the action log. */
const READ_ONLY = [
  /^\/api\/v1\/chart\/data\/?$/,
  /^\/api\/v1\/sqllab\/(estimate|format_sql)\/?$/,
  /^\/api\/v1\/database\/(test_connection|validate_parameters)\/?$/,
  /^\/api\/v1\/database\/\d+\/validate_sql\/?$/,
  /^\/api\/v1\/security\/(login|refresh)\/?$/,
  // Client events are logged by the call itself.
  /^\/api\/v1\/log\/?$/,
];
const READ_ONLY_TRPC = new Set(['database.validateParameters', 'database.testConnection']);

const WRITING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What the server knows of a finished request. */
export interface FinishedRequest {
  method: string;
  /** The path without its query string. */
  path: string;
  /** The matched route (`/api/v1/chart/:pk`), or null. */
  route: string | null;
  params: Record<string, unknown>;
  status: number;
  durationMs: number;
  userId: number | null;
  referrer: string | null;
}

const id = metadataId;

/**
 * The action log entry of a request that changes something (REST writes, tRPC mutations), or null: who,
 * what (`PUT /api/v1/chart/:pk`, `trpc chart.update`), on which object, how long it took, from where.
 */
export function actionLogEntry(r: FinishedRequest): LogEntry | null {
  if (!WRITING.has(r.method.toUpperCase())) return null;
  let action: string;
  if (r.path.startsWith('/trpc/')) {
    const procedures = decodeURIComponent(r.path.slice('/trpc/'.length)).split(',').filter((p) => !READ_ONLY_TRPC.has(p));
    if (!procedures.length) return null;
    action = `trpc ${procedures.join(',')}`;
  } else if (r.path.startsWith('/api/v1/') || r.path.startsWith('/tabstateview/') || r.path === '/tabstateview') {
    if (READ_ONLY.some((re) => re.test(r.path))) return null;
    action = `${r.method.toUpperCase()} ${r.route ?? r.path}`;
  } else return null;
  const objectId = id(r.params.pk);
  const route = r.route ?? r.path;
  return {
    action: action.slice(0, 512),
    user_id: r.userId,
    json: JSON.stringify({ path: r.path, status: r.status, ...(objectId !== null ? { object_id: objectId } : {}) }),
    dashboard_id: route.startsWith('/api/v1/dashboard/:pk') ? objectId : null,
    slice_id: route.startsWith('/api/v1/chart/:pk') ? objectId : null,
    duration_ms: Math.round(r.durationMs),
    referrer: r.referrer ? r.referrer.slice(0, 1024) : null,
  };
}
