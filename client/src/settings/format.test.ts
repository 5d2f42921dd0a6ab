import { afterAll, describe, expect, it } from 'vitest';

// Superset's answers write naive UTC times ('2024-01-02T03:04:05.123456'); JavaScript alone reads those as the
// browser's local time, which would shift every shown time by the zone's offset.
describe('formatDateTime', () => {
  const zone = process.env.TZ;
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('shows a naive server time as the UTC instant it is, in a browser west of UTC', async () => {
    process.env.TZ = 'America/New_York';
    const { formatDateTime } = await import('./format');
    const expected = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/New_York' }).format(Date.UTC(2024, 0, 2, 15, 4, 5));
    expect(formatDateTime('2024-01-02T15:04:05.123456')).toBe(expected);
    expect(formatDateTime('2024-01-02T15:04:05.123456+0000')).toBe(expected);
    expect(formatDateTime('2024-01-02T15:04:05Z')).toBe(expected);
    expect(formatDateTime('not a time')).toBe('not a time');
  });
});
