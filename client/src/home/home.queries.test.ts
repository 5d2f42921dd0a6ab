import { afterEach, describe, expect, it, vi } from 'vitest';
import { listFilters, recentsQuery, sectionQuery } from './home.queries';

// Superset's welcome page filters (views/CRUD/utils.tsx getFilterValues), which the home's tabs send.
describe('home section filters', () => {
  it('Favorite: "id" with dashboard_is_favorite, chart_is_favorite or saved_query_is_fav', () => {
    expect(listFilters('dashboard', 'Favorite', 7)).toEqual([{ col: 'id', opr: 'dashboard_is_favorite', value: true }]);
    expect(listFilters('chart', 'Favorite', 7)).toEqual([{ col: 'id', opr: 'chart_is_favorite', value: true }]);
    expect(listFilters('saved_query', 'Favorite', 7)).toEqual([{ col: 'id', opr: 'saved_query_is_fav', value: true }]);
  });

  it('Mine: owners rel_m_m for dashboards and charts, created_by rel_o_m for saved queries', () => {
    expect(listFilters('dashboard', 'Mine', 7)).toEqual([{ col: 'owners', opr: 'rel_m_m', value: 7 }]);
    expect(listFilters('chart', 'Mine', 7)).toEqual([{ col: 'owners', opr: 'rel_m_m', value: 7 }]);
    expect(listFilters('saved_query', 'Mine', 7)).toEqual([{ col: 'created_by', opr: 'rel_o_m', value: 7 }]);
  });
});

describe('home lists while the dashboard endpoint is missing', () => {
  const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const stubFetch = (byPath: (path: string) => Response) => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      calls.push(decodeURIComponent(url));
      return byPath(url);
    });
    return calls;
  };
  afterEach(() => vi.unstubAllGlobals());

  it('a 404 of /api/v1/dashboard/ is an empty list; another failure is an error', async () => {
    stubFetch(() => answer(404, { message: 'Not found' }));
    await expect(sectionQuery('dashboard', 'Mine', 1).queryFn()).resolves.toEqual([]);
    stubFetch(() => answer(500, { message: 'Fatal error' }));
    await expect(sectionQuery('dashboard', 'Mine', 1).queryFn()).rejects.toThrow();
  });

  it('Created merges charts and saved queries newest first, with rison filters on created_by, when dashboards answer 404', async () => {
    const calls = stubFetch((url) => {
      if (url.startsWith('/api/v1/dashboard/')) return answer(404, { message: 'Not found' });
      if (url.startsWith('/api/v1/chart/'))
        return answer(200, { result: [{ id: 3, slice_name: 'Births', url: '/explore/?slice_id=3', changed_on_delta_humanized: '2 hours ago', changed_on_utc: '2026-01-01T10:00:00Z' }] });
      return answer(200, { result: [{ id: 9, label: 'Top names', sql: 'SELECT 1', changed_on: '2026-01-01T12:00:00Z', changed_on_delta_humanized: 'now' }] });
    });
    const items = await recentsQuery('Created', 5).queryFn();
    expect(items.map((i) => [i.kind, i.title, i.url])).toEqual([
      ['saved_query', 'Top names', '/sqllab/?savedQueryId=9'],
      ['chart', 'Births', '/explore/?slice_id=3'],
    ]);
    expect(calls.find((c) => c.startsWith('/api/v1/chart/'))).toContain("filters:!((col:created_by,opr:rel_o_m,value:5))");
  });
});
