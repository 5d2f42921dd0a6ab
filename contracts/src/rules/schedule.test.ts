import { describe, expect, it } from 'vitest';
import {
  CRONTAB_FIELD_COUNT,
  END_BEFORE_START,
  OUTPUT_TABLE_REQUIRED,
  readScheduleInfo,
  scheduleInfoOf,
  validateCrontab,
  validateScheduleForm,
  withScheduleInfo,
} from './schedule';

describe('scheduled queries: schedule_info in a saved query extra_json', () => {
  it('accepts five-field crontabs with values, ranges, steps, lists and names, and the @macros', () => {
    for (const ok of ['* * * * *', '0 0 * * *', '*/15 9-17 * * MON-FRI', '0 6,18 1 JAN,jul 0', '5/10 * * * 7', '0 0 1 */3 *', '@daily', '@HOURLY', ' 0  12 * * 1 ']) {
      expect(validateCrontab(ok), ok).toBe(false);
    }
  });

  it('refuses a crontab without five fields, out-of-range values, reversed ranges and bad steps', () => {
    expect(validateCrontab('')).toBe(CRONTAB_FIELD_COUNT);
    expect(validateCrontab('* * * *')).toBe(CRONTAB_FIELD_COUNT);
    expect(validateCrontab('* * * * * *')).toBe(CRONTAB_FIELD_COUNT);
    expect(validateCrontab('60 * * * *')).toBe('Invalid minute field: 60');
    expect(validateCrontab('0 24 * * *')).toBe('Invalid hour field: 24');
    expect(validateCrontab('0 0 0 * *')).toBe('Invalid day-of-month field: 0');
    expect(validateCrontab('0 0 * 13 *')).toBe('Invalid month field: 13');
    expect(validateCrontab('0 0 * * 8')).toBe('Invalid day-of-week field: 8');
    expect(validateCrontab('0 10-2 * * *')).toBe('Invalid hour field: 10-2');
    expect(validateCrontab('*/0 * * * *')).toBe('Invalid minute field: */0');
    expect(validateCrontab('1,,2 * * * *')).toBe('Invalid minute field: 1,,2');
    expect(validateCrontab('0 0 * * FUNDAY')).toBe('Invalid day-of-week field: FUNDAY');
    expect(validateCrontab('@sometimes')).toBe(CRONTAB_FIELD_COUNT);
  });

  it('requires an output table and a start date; the end date cannot be before the start date', () => {
    expect(validateScheduleForm({ output_table: '', start_date: '', interval: 'daily' })).toEqual({ output_table: OUTPUT_TABLE_REQUIRED, start_date: 'Start date is required' });
    expect(validateScheduleForm({ output_table: 'bad name', start_date: '2024-02-30', interval: 'daily' })).toEqual({
      output_table: 'Use letters, digits and underscores (schema.table allowed)',
      start_date: 'Expected a date as YYYY-MM-DD',
    });
    expect(validateScheduleForm({ output_table: 'main.daily_sales', start_date: '2024-05-02', end_date: '2024-05-01', interval: 'weekly' })).toEqual({ end_date: END_BEFORE_START });
    expect(validateScheduleForm({ output_table: 'daily_sales', start_date: '2024-05-02', end_date: '2024-05-02', interval: 'custom', crontab: '0 7 * * 1-5' })).toEqual({});
    expect(validateScheduleForm({ output_table: 'daily_sales', start_date: '2024-05-02', interval: 'custom', crontab: '0 7 * *' })).toEqual({ crontab: CRONTAB_FIELD_COUNT });
  });

  it('stores the effective crontab: the named interval, or the typed one', () => {
    expect(scheduleInfoOf({ output_table: ' t ', start_date: '2024-05-02', end_date: '', interval: 'daily' })).toEqual({
      output_table: 't',
      start_date: '2024-05-02',
      end_date: null,
      interval: 'daily',
      schedule_interval: '0 0 * * *',
    });
    expect(scheduleInfoOf({ output_table: 't', start_date: '2024-05-02', interval: 'custom', crontab: ' 0  7 * * 1-5 ' }).schedule_interval).toBe('0 7 * * 1-5');
  });

  it('reads and writes schedule_info in extra_json, keeping its other keys', () => {
    const info = scheduleInfoOf({ output_table: 't', start_date: '2024-05-02', interval: 'hourly' });
    const extra = withScheduleInfo('{"other": 1}', info);
    expect(JSON.parse(extra)).toEqual({ other: 1, schedule_info: info });
    expect(readScheduleInfo(extra)).toEqual(info);
    expect(JSON.parse(withScheduleInfo(extra, null))).toEqual({ other: 1 });
    expect(readScheduleInfo(null)).toBeNull();
    expect(readScheduleInfo('not json')).toBeNull();
    expect(readScheduleInfo('{"schedule_info": "x"}')).toBeNull();
    expect(JSON.parse(withScheduleInfo('[1]', info))).toEqual({ schedule_info: info });
  });
});
