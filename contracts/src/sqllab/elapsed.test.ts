import { describe, expect, it } from 'vitest';
import { formatElapsed, queryElapsedMs, successEndDttm } from './elapsed';

describe('query elapsed time (spec 01 §3 Query: startDttm, endDttm)', () => {
  it('a finished query shows its own end minus its own start, however long ago it ran', () => {
    const restored = { state: 'success', startDttm: 1_700_000_000_000, endDttm: 1_700_000_000_090 };
    expect(queryElapsedMs(restored, 1_700_000_061_640)).toBe(90);
    expect(formatElapsed(queryElapsedMs(restored, Date.now())!)).toBe('00:00:00.09');
  });

  it('a running query shows the time since its start', () => {
    expect(queryElapsedMs({ state: 'running', startDttm: 1000 }, 3500)).toBe(2500);
    expect(queryElapsedMs({ state: 'fetching', startDttm: 1000, endDttm: 1200 }, 3500)).toBe(2500);
  });

  it('a finished query without an end time has no elapsed time, not the time since it was loaded', () => {
    expect(queryElapsedMs({ state: 'failed', startDttm: 1000 }, 61_000)).toBeNull();
  });

  it("'Success ... sets ... an end time': now for a query just run, the end it holds when its rows come later", () => {
    expect(successEndDttm({}, 9000)).toBe(9000);
    expect(successEndDttm(undefined, 9000)).toBe(9000);
    expect(successEndDttm({ endDttm: 5000 }, 9000)).toBe(5000);
  });

  it('formats as HH:MM:SS.ss', () => {
    expect(formatElapsed(61_550)).toBe('00:01:01.55');
    expect(formatElapsed(3_723_450)).toBe('01:02:03.45');
  });
});
