import { describe, expect, it } from 'vitest';
import { actionLogEntry, type FinishedRequest } from './action-log';

const request = (patch: Partial<FinishedRequest>): FinishedRequest => ({ method: 'PUT', path: '/api/v1/chart/7', route: '/api/v1/chart/:pk', params: { pk: '7' }, status: 200, durationMs: 12.4, userId: 1, referrer: 'http://localhost/explore/', ...patch });

describe('action log entries (issue 14: every call that changes something is logged)', () => {
  it('logs a REST write with user, action, object, duration and referrer', () => {
    expect(actionLogEntry(request({}))).toEqual({ action: 'PUT /api/v1/chart/:pk', user_id: 1, json: '{"path":"/api/v1/chart/7","status":200,"object_id":7}', dashboard_id: null, slice_id: 7, duration_ms: 12, referrer: 'http://localhost/explore/' });
    expect(actionLogEntry(request({ method: 'DELETE', path: '/api/v1/dashboard/3', route: '/api/v1/dashboard/:pk', params: { pk: '3' }, status: 403 }))).toMatchObject({ action: 'DELETE /api/v1/dashboard/:pk', dashboard_id: 3, slice_id: null });
  });

  it('logs tRPC mutations by procedure', () => {
    expect(actionLogEntry(request({ method: 'POST', path: '/trpc/chart.update,dashboard.save', route: '/trpc/:path', params: {} }))).toMatchObject({ action: 'trpc chart.update,dashboard.save' });
  });

  it('leaves out reads, and writes that only read', () => {
    expect(actionLogEntry(request({ method: 'GET' }))).toBeNull();
    for (const path of ['/api/v1/chart/data', '/api/v1/sqllab/format_sql/', '/api/v1/database/4/validate_sql/', '/api/v1/log/', '/api/v1/security/login']) {
      expect(actionLogEntry(request({ method: 'POST', path, route: path, params: {} })), path).toBeNull();
    }
    expect(actionLogEntry(request({ method: 'POST', path: '/trpc/database.testConnection', route: null, params: {} }))).toBeNull();
    expect(actionLogEntry(request({ method: 'POST', path: '/login/', route: '/login/', params: {} }))).toBeNull();
  });
});
