import { describe, expect, it } from 'vitest';
import { menuFor } from './menu';

describe('the menu (GET /api/v1/menu/ and the navigation bar)', () => {
  it('gives an admin every item, submenus under their parents', () => {
    const menu = menuFor(() => true);
    expect(menu.map((m) => m.name)).toEqual(['SQL', 'Charts', 'Dashboards', 'Datasets', 'Settings']);
    expect(menu[0]!.childs!.map((c) => [c.name, c.url])).toEqual([
      ['SQL Lab', '/sqllab/'],
      ['Saved Queries', '/savedqueryview/list/'],
      ['Query Search', '/sqllab/history/'],
    ]);
    expect(menu[4]!.childs!.map((c) => c.name)).toEqual(['Databases', 'List Users', 'List Roles', 'Row Level Security', 'Alerts & Report', 'Action Log']);
  });

  it('keeps only what the role reaches, and drops a submenu left empty', () => {
    const gamma = new Set(['can_read:Chart', 'can_read:Dashboard', 'can_read:Dataset']);
    const menu = menuFor((p, v) => gamma.has(`${p}:${v}`));
    expect(menu.map((m) => m.name)).toEqual(['Charts', 'Dashboards', 'Datasets']);
    expect(menu.every((m) => m.childs === undefined)).toBe(true);
  });

  it('leaves out Alerts & reports while ALERT_REPORTS is off', () => {
    const settings = menuFor(() => true, { ALERT_REPORTS: false }).find((m) => m.name === 'Settings')!;
    expect(settings.childs!.map((c) => c.name)).toEqual(['Databases', 'List Users', 'List Roles', 'Row Level Security', 'Action Log']);
  });
});
