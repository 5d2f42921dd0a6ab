import { describe, expect, it } from 'vitest';
import { alertTriggered, alertValue, decideRun, errorNoticeDue, REPORT_MESSAGES, reportFormatError } from './report';
import { describeCrontab } from './schedule';

const at = (iso: string) => new Date(iso);
const now = at('2026-11-25T12:00:00Z');

describe('report runs (spec 02 §7 Reports; Superset ReportScheduleStateMachine)', () => {
  it('a report runs on every schedule, whatever its last state', () => {
    for (const last_state of [null, 'Success', 'Not triggered', 'Error', 'On Grace']) {
      expect(decideRun({ type: 'Report', last_state, last_success_dttm: at('2026-11-25T11:59:00Z'), grace_period: 14400, working_timeout: 3600, working_since: null }, now)).toEqual({ kind: 'run' });
    }
  });
  it('an alert that fired waits out its grace period, then runs again', () => {
    const fired = { type: 'Alert', last_state: 'Success', grace_period: 3600, working_timeout: 3600, working_since: null };
    expect(decideRun({ ...fired, last_success_dttm: at('2026-11-25T11:30:00Z') }, now)).toEqual({ kind: 'grace' });
    expect(decideRun({ ...fired, last_state: 'On Grace', last_success_dttm: at('2026-11-25T11:30:00Z') }, now)).toEqual({ kind: 'grace' });
    expect(decideRun({ ...fired, last_success_dttm: at('2026-11-25T10:59:00Z') }, now)).toEqual({ kind: 'run' });
    expect(decideRun({ ...fired, last_state: 'Not triggered', last_success_dttm: at('2026-11-25T11:59:00Z') }, now)).toEqual({ kind: 'run' });
  });
  it('a run still working refuses to start, until it passes its working timeout', () => {
    const working = { type: 'Report', last_state: 'Working', last_success_dttm: null, grace_period: 0, working_timeout: 600 };
    expect(decideRun({ ...working, working_since: at('2026-11-25T11:55:00Z') }, now)).toEqual({ kind: 'still-working' });
    expect(decideRun({ ...working, working_since: at('2026-11-25T11:49:00Z') }, now)).toEqual({ kind: 'working-timeout' });
  });
  it('an error notice is not repeated within the grace period', () => {
    expect(errorNoticeDue(at('2026-11-25T11:30:00Z'), 3600, now)).toBe(false);
    expect(errorNoticeDue(at('2026-11-25T10:30:00Z'), 3600, now)).toBe(true);
    expect(errorNoticeDue(null, 3600, now)).toBe(true);
  });
});

describe('alert values and conditions (Superset AlertCommand)', () => {
  it('reads one value from one row and one column', () => {
    expect(alertValue([], 'operator')).toEqual({ ok: true, value: null });
    expect(alertValue([[42]], 'operator')).toEqual({ ok: true, value: 42 });
    expect(alertValue([['3.5']], 'operator')).toEqual({ ok: true, value: 3.5 });
    expect(alertValue([[10n]], 'operator')).toEqual({ ok: true, value: 10 });
    expect(alertValue([[1], [2]], 'operator')).toEqual({ ok: false, message: 'Alert query returned more than one row. 2 rows returned' });
    expect(alertValue([[1, 2]], 'operator')).toEqual({ ok: false, message: 'Alert query returned more than one column. 2 columns returned' });
    expect(alertValue([['abc']], 'operator')).toEqual({ ok: false, message: REPORT_MESSAGES.alertInvalidType });
    expect(alertValue([['abc']], 'not null')).toEqual({ ok: true, value: 1 });
  });
  it("applies Superset's operators against the threshold", () => {
    const cases: Array<[string, number, number, boolean]> = [
      ['<', 1, 2, true], ['<', 2, 2, false], ['<=', 2, 2, true], ['>', 3, 2, true], ['>', 2, 2, false],
      ['>=', 2, 2, true], ['==', 2, 2, true], ['==', 3, 2, false], ['!=', 3, 2, true], ['!=', 2, 2, false],
    ];
    for (const [op, value, threshold, fires] of cases) expect(alertTriggered('operator', { op: op as '<', threshold }, value)).toBe(fires);
    expect(alertTriggered('operator', { op: '>', threshold: 1 }, null)).toBe(false);
    expect(() => alertTriggered('operator', { threshold: 1 }, 2)).toThrow(REPORT_MESSAGES.alertValidatorConfig);
  });
  it('not null fires on any value but null and 0', () => {
    expect(alertTriggered('not null', null, 5)).toBe(true);
    expect(alertTriggered('not null', null, 0)).toBe(false);
    expect(alertTriggered('not null', null, null)).toBe(false);
  });

  it('a chart is sent as PNG, CSV or TEXT, a dashboard as PNG or PDF (the report modal offers the same)', () => {
    for (const f of ['PNG', 'CSV', 'TEXT']) expect(reportFormatError('chart', f)).toBeNull();
    for (const f of ['PNG', 'PDF']) expect(reportFormatError('dashboard', f)).toBeNull();
    expect(reportFormatError('chart', 'PDF')).toBe('A chart is sent as PNG, CSV or TEXT');
    expect(reportFormatError('dashboard', 'TEXT')).toBe('A dashboard is sent as PNG or PDF');
  });

  it('a crontab reads in words (crontab_humanized), and one that does not parse reads as nothing', () => {
    expect(describeCrontab('0 9 * * 1')).toBe('At 09:00 AM, only on Monday');
    expect(describeCrontab('61 * * * *')).toBeNull();
  });
});
