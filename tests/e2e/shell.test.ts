import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { closeDialog, ensureClientBuilt, launchBrowser, login, screenshot } from './browser';

// The app shell in a real Chromium against the real server: login, home, menus, users and roles, theme, logout.
describe('app shell in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let adminToken: string;

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    adminToken = await t.token();
    browser = await launchBrowser();
    // Reduced motion: Mantine skips its transitions, so screenshots never catch a drawer half-way in.
    context = await browser.newContext({ viewport: { width: 1366, height: 860 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    // Keep the evidence, and close what the failure left open so the next test (or the retry) starts clean.
    await screenshot(page, `failed-shell-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    await closeDialog(page, 5_000).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const apiGet = (path: string) => t.http.get(path).set('Authorization', `Bearer ${adminToken}`);
  const html = () => page.locator('html');

  it('sends a signed-out visitor to the login page and refuses a wrong password with "Invalid login"', async () => {
    await page.goto(`${t.url}/users/list/`);
    await page.waitForURL(/\/login\/\?next=/);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Invalid login');
    await screenshot(page, 'shell-login-invalid');
  });

  it('logs in and goes where the visitor was going', async () => {
    await page.getByLabel('Password', { exact: true }).fill('admin');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/users/list/`);
    await page.getByRole('table', { name: 'Users' }).getByRole('cell', { name: 'admin', exact: true }).waitFor();
  });

  it('shows home with the welcome, Recents and the Dashboards, Charts and Saved queries sections', async () => {
    await page.getByRole('link', { name: 'Meridian' }).click();
    await page.getByRole('heading', { name: 'Welcome, Admin' }).waitFor();
    for (const name of ['Recents', 'Dashboards', 'Charts', 'Saved queries']) await page.getByRole('heading', { name, exact: true }).waitFor();
    await page.getByText('Nothing viewed yet').waitFor();
    await screenshot(page, 'shell-home');
    await page.goto(`${t.url}/superset/welcome/`);
    await page.getByRole('heading', { name: 'Welcome, Admin' }).waitFor();
  });

  it('opens the SQL and Settings menus and each of their screens', async () => {
    await page.getByRole('button', { name: 'SQL', exact: true }).click();
    await page.getByRole('menuitem', { name: 'SQL Lab' }).waitFor();
    const sqlItems = await page.getByRole('menu', { name: 'SQL' }).getByRole('menuitem').allTextContents();
    expect(sqlItems).toEqual(['SQL Lab', 'Saved queries', 'Query history']);
    await screenshot(page, 'shell-menu-sql');
    await page.getByRole('menuitem', { name: 'Saved queries' }).click();
    await page.waitForURL(`${t.url}/savedqueryview/list/`);
    await page.getByRole('menu').waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Saved queries' }).waitFor();

    await page.getByRole('button', { name: 'SQL', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Query history' }).click();
    await page.waitForURL(`${t.url}/sqllab/history/`);
    await page.getByRole('heading', { name: 'Query history' }).waitFor();

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Databases' }).waitFor();
    await screenshot(page, 'shell-menu-settings');
    expect(await page.getByRole('menu', { name: 'Settings' }).getByRole('menuitem').allTextContents()).toEqual(['Databases', 'Users', 'Roles', 'Row level security', 'Alerts & reports', 'Action log']);
    await page.getByRole('menuitem', { name: 'Databases' }).click();
    await page.waitForURL(`${t.url}/databaseview/list/`);
    await page.getByRole('heading', { name: 'Databases' }).waitFor();
  });

  it('follows the Charts, Dashboards and Datasets links', async () => {
    for (const [name, path] of [
      ['Charts', '/chart/list/'],
      ['Dashboards', '/dashboard/list/'],
      ['Datasets', '/tablemodelview/list/'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
      await page.waitForURL(`${t.url}${path}`);
      await page.getByRole('heading', { name, level: 2 }).waitFor();
    }
    await page.goto(`${t.url}/no/such/page/`);
    await page.getByText('Page not found').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  });

  it('lists users with server-side search', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await page.waitForURL(`${t.url}/users/list/`);
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('cell', { name: 'admin@meridian.local' }).waitFor();
    await screenshot(page, 'shell-users');

    await page.getByLabel('Search username', { exact: true }).fill('nobody-like-this');
    await page.getByText('No results match your filters').waitFor();
    await page.getByLabel('Search username', { exact: true }).fill('adm');
    await table.getByRole('cell', { name: 'admin@meridian.local' }).waitFor();
    await page.getByLabel('Search username', { exact: true }).fill('');
  });

  it('creates a user through the modal, deactivates it, then bulk-deletes it', async () => {
    // A retry starts without the user an earlier try may have left.
    const left = await apiGet(`/api/v1/security/users/?q=(filters:!((col:username,opr:eq,value:jdoe)))`);
    for (const user of left.body.result ?? []) await t.http.delete(`/api/v1/security/users/${user.id}`).set('Authorization', `Bearer ${adminToken}`);
    await page.goto(`${t.url}/users/list/`);
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await dialog.getByText('Missing data for required field.').first().waitFor();
    await dialog.getByText('Select at least one role.').waitFor();

    await dialog.getByLabel('First name').fill('Jane');
    await dialog.getByLabel('Last name').fill('Doe');
    await dialog.getByLabel('Username').fill('jdoe');
    await dialog.getByLabel('Email').fill('jdoe@example.com');
    await dialog.locator('input[type="password"]').fill('s3cret-pass');
    await dialog.getByRole('combobox', { name: 'Roles' }).click();
    await page.getByRole('option', { name: 'Gamma', exact: true }).click();
    await page.keyboard.press('Escape');
    await screenshot(page, 'shell-user-modal');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await page.getByText('User jdoe created').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('cell', { name: 'jdoe@example.com' }).waitFor();
    const created = await apiGet(`/api/v1/security/users/?q=(filters:!((col:username,opr:eq,value:jdoe)))`);
    expect(created.body.count).toBe(1);
    const jdoe = created.body.result[0];
    expect(jdoe).toMatchObject({ first_name: 'Jane', last_name: 'Doe', email: 'jdoe@example.com', active: true, roles: [{ name: 'Gamma' }] });
    await screenshot(page, 'shell-users-created');

    await page.getByRole('button', { name: 'Deactivate jdoe' }).click();
    await page.getByRole('button', { name: 'Activate jdoe', exact: true }).waitFor();
    expect((await apiGet(`/api/v1/security/users/${jdoe.id}`)).body.result.active).toBe(false);

    const row = table.getByRole('row').filter({ hasText: 'jdoe@example.com' });
    await row.getByRole('checkbox', { name: 'Select row' }).check();
    const bulk = page.getByRole('toolbar', { name: 'Bulk actions' });
    await bulk.getByText('1 selected').waitFor();
    await screenshot(page, 'shell-users-bulk');
    await bulk.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('Are you sure you want to delete jdoe?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted jdoe').waitFor();
    await table.getByRole('cell', { name: 'jdoe@example.com' }).waitFor({ state: 'detached' });
    expect((await apiGet(`/api/v1/security/users/${jdoe.id}`)).status).toBe(404);
  });

  it('lists roles with their permission counts and shows a role\'s permissions', async () => {
    await page.goto(`${t.url}/`);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Roles' }).click();
    await page.waitForURL(`${t.url}/roles/list/`);
    const table = page.getByRole('table', { name: 'Roles' });
    await table.getByRole('button', { name: 'Gamma', exact: true }).waitFor();
    const gamma = (await apiGet('/api/v1/security/roles/?q=(filters:!((col:name,opr:eq,value:Gamma)))')).body.result[0];
    await table.getByRole('row').filter({ hasText: 'Gamma' }).getByText(`${gamma.permissions.length} permissions`).waitFor();
    await screenshot(page, 'shell-roles');

    await table.getByRole('button', { name: 'Gamma', exact: true }).click();
    const drawer = page.getByRole('dialog');
    const first = gamma.permissions[0] as { permission_name: string; view_menu_name: string };
    const box = drawer.getByRole('checkbox', { name: `${first.permission_name} on ${first.view_menu_name}` });
    await expect(box.isChecked()).resolves.toBe(true);
    await screenshot(page, 'shell-role-drawer');
    await closeDialog(page);
  });

  it('switches to the dark theme and keeps it after a reload', async () => {
    await page.goto(`${t.url}/roles/list/`);
    expect(await html().getAttribute('data-mantine-color-scheme')).toBe('light');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await html().getAttribute('data-mantine-color-scheme')).toBe('dark');
    await page.reload();
    await page.getByRole('table', { name: 'Roles' }).waitFor();
    expect(await html().getAttribute('data-mantine-color-scheme')).toBe('dark');
    await screenshot(page, 'shell-roles-dark');
    await page.goto(`${t.url}/`);
    await page.getByRole('heading', { name: 'Welcome, Admin' }).waitFor();
    await screenshot(page, 'shell-home-dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await html().getAttribute('data-mantine-color-scheme')).toBe('light');
  });

  it('shows the user info and logs out', async () => {
    await page.getByRole('button', { name: 'Admin User' }).click();
    await page.getByRole('menuitem', { name: 'Info' }).click();
    await page.getByRole('dialog').getByText('admin@meridian.local').waitFor();
    await closeDialog(page);

    await page.getByRole('button', { name: 'Admin User' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${t.url}/login/`);
    await page.goto(`${t.url}/`);
    await page.waitForURL(`${t.url}/login/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'shell-login');
  });

  it('logs back in with the shared helper', async () => {
    await login(page, t.url);
    await page.getByRole('heading', { name: 'Welcome, Admin' }).waitFor();
  });

  it('sends the user back to the login page when the session ends while the app is open', async () => {
    await context.clearCookies();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await page.waitForURL(`${t.url}/login/?next=%2Fusers%2Flist%2F`);
    await login(page, t.url);
  });
});
