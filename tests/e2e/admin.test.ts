import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { closeDialog, ensureClientBuilt, launchBrowser, login, screenshot } from './browser';

// The admin screens (Users, Roles) and the list view they share, in a real Chromium against the real server.
describe('admin screens in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let admin: BrowserContext;
  let page: Page;
  let token: string;
  const others: BrowserContext[] = [];

  const auth = () => ({ Authorization: `Bearer ${token}` });
  const roleId = async (name: string) => (await t.http.get(`/api/v1/security/roles/?q=(filters:!((col:name,opr:eq,value:${name})))`).set(auth())).body.result[0].id as number;
  const userNamed = async (username: string) =>
    (await t.http.get(`/api/v1/security/users/?q=(filters:!((col:username,opr:eq,value:'${username}')))`).set(auth())).body.result[0] as Record<string, any> | undefined;
  const createUser = async (username: string, roles: string[], password = 'pw-12345') => {
    const ids = await Promise.all(roles.map(roleId));
    const res = await t.http
      .post('/api/v1/security/users/')
      .set(auth())
      .send({ first_name: username, last_name: 'Test', username, email: `${username}@example.com`, password, roles: ids });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const newPage = async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 860 }, reducedMotion: 'reduce' });
    others.push(context);
    const p = await context.newPage();
    p.setDefaultTimeout(20_000);
    return p;
  };
  const usersTable = () => page.getByRole('table', { name: 'Users' });
  /** The email column of the Users table, top to bottom. */
  const shownEmails = async () => {
    const rows = usersTable().locator('tbody tr');
    const emails: string[] = [];
    for (let i = 0; i < (await rows.count()); i++) emails.push((await rows.nth(i).locator('td').nth(3).textContent()) ?? '');
    return emails;
  };
  /** The rison `q` of the next users list request the page makes. */
  const nextListQuery = () =>
    page
      .waitForRequest((r: Request) => new URL(r.url()).pathname === '/api/v1/security/users/' && r.method() === 'GET')
      .then((r) => new URL(r.url()).searchParams.get('q') ?? '');
  const sortOf = (q: string) => ({ column: /order_column:([^,)]+)/.exec(q)?.[1], direction: /order_direction:([^,)]+)/.exec(q)?.[1] });
  const restEmails = async (q: string) => ((await t.http.get('/api/v1/security/users/').query({ q }).set(auth())).body.result as { email: string }[]).map((u) => u.email);

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    token = await t.token();
    browser = await launchBrowser();
    admin = await browser.newContext({ viewport: { width: 1366, height: 860 }, reducedMotion: 'reduce' });
    page = await admin.newPage();
    page.setDefaultTimeout(20_000);
    await login(page, t.url);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    await screenshot(page, `failed-admin-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    await closeDialog(page, 5_000).catch(() => undefined);
  });
  afterAll(async () => {
    for (const context of others) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('creates a Gamma user in the Users screen; adding sql_lab lets that user, already signed in elsewhere, open SQL Lab without signing in again', async () => {
    await page.goto(`${t.url}/users/list/`);
    await usersTable().getByRole('cell', { name: 'admin@meridian.local' }).waitFor();
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    await dialog.getByLabel('First name').fill('Ana');
    await dialog.getByLabel('Last name').fill('Analyst');
    await dialog.getByLabel('Username').fill('ana');
    await dialog.getByLabel('Email').fill('ana@example.com');
    await dialog.locator('input[type="password"]').fill('ana-pass-1');
    await dialog.getByRole('combobox', { name: 'Roles' }).click();
    await page.getByRole('option', { name: 'Gamma', exact: true }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await page.getByText('User ana created').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await userNamed('ana')).toMatchObject({ active: true, roles: [{ name: 'Gamma' }] });

    // Ana signs in in another browser: Gamma alone offers no SQL Lab.
    const ana = await newPage();
    await login(ana, t.url, 'ana', 'ana-pass-1');
    await ana.getByRole('heading', { name: 'Welcome, Ana' }).waitFor();
    // Gamma may still see the SQL menu (for saved queries), but never its SQL Lab item.
    if (await ana.getByRole('button', { name: 'SQL', exact: true }).count()) {
      await ana.getByRole('button', { name: 'SQL', exact: true }).click();
      await ana.getByRole('menu', { name: 'SQL' }).getByRole('menuitem').first().waitFor();
      await expect(ana.getByRole('menuitem', { name: 'SQL Lab' }).count()).resolves.toBe(0);
      await ana.keyboard.press('Escape');
    }
    await screenshot(ana, 'admin-gamma-home');

    await page.getByRole('button', { name: 'Edit ana' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit user ana' });
    await edit.getByRole('combobox', { name: 'Roles' }).click();
    await page.getByRole('option', { name: 'sql_lab', exact: true }).click();
    await page.keyboard.press('Escape');
    await screenshot(page, 'admin-user-edit-roles');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Changes to ana saved').waitFor();
    await edit.waitFor({ state: 'detached' });
    await usersTable().getByRole('row').filter({ hasText: 'ana@example.com' }).getByText('sql_lab', { exact: true }).waitFor();
    expect(((await userNamed('ana'))!.roles as { name: string }[]).map((r) => r.name).sort()).toEqual(['Gamma', 'sql_lab']);
    await screenshot(page, 'admin-users-edited');

    // Same session, no new sign-in: a reload shows SQL Lab and it opens.
    await ana.reload();
    await ana.getByRole('heading', { name: 'Welcome, Ana' }).waitFor();
    await ana.getByRole('button', { name: 'SQL', exact: true }).click();
    await ana.getByRole('menuitem', { name: 'SQL Lab' }).click();
    await ana.waitForURL(`${t.url}/sqllab/`);
    await expect.poll(() => ana.getByTestId('sqllab-tab').allTextContents()).toEqual(['Untitled Query 1']);
    expect(ana.url()).not.toContain('/login/');
    await screenshot(ana, 'admin-granted-sqllab');
  });

  it('deactivates a user: their open session ends and the login page refuses them with "Invalid login"', async () => {
    await createUser('bob', ['Gamma'], 'bob-pass-1');
    const bob = await newPage();
    await login(bob, t.url, 'bob', 'bob-pass-1');

    await page.goto(`${t.url}/users/list/`);
    await page.getByRole('button', { name: 'Deactivate bob' }).click();
    await page.getByText('bob was deactivated').waitFor();
    await page.getByRole('button', { name: 'Activate bob', exact: true }).waitFor();
    await usersTable().getByRole('row').filter({ hasText: 'bob@example.com' }).getByText('Inactive').waitFor();
    expect((await userNamed('bob'))!.active).toBe(false);
    await screenshot(page, 'admin-users-deactivated');

    await bob.goto(`${t.url}/chart/list/`);
    await bob.waitForURL(/\/login\/\?next=/);
    await bob.getByRole('button', { name: 'Sign in' }).waitFor().catch(async (error) => {
      await screenshot(bob, 'failed-admin-deactivated-bob');
      throw error;
    });
    await bob.getByLabel('Username').fill('bob');
    await bob.getByLabel('Password', { exact: true }).fill('bob-pass-1');
    await bob.getByRole('button', { name: 'Sign in' }).click();
    await expect(bob.getByRole('alert').textContent()).resolves.toContain('Invalid login');
    expect(bob.url()).toContain('/login/');
    await screenshot(bob, 'admin-deactivated-login');
  });

  it("shows a built-in role's permissions read-only, and edits a new role's name, permissions and users", async () => {
    await page.goto(`${t.url}/roles/list/`);
    const table = page.getByRole('table', { name: 'Roles' });
    await table.getByRole('button', { name: 'sql_lab', exact: true }).click();
    let drawer = page.getByRole('dialog');
    const sqllab = drawer.getByRole('checkbox', { name: 'can_sqllab on Superset' });
    await expect(sqllab.isChecked()).resolves.toBe(true);
    await expect(sqllab.isDisabled()).resolves.toBe(true);
    await drawer.getByText("Meridian sets this built-in role's permissions at every start.", { exact: false }).waitFor();
    await drawer.getByLabel('Search permissions').fill('SavedQuery');
    await drawer.getByRole('cell', { name: 'Superset', exact: true }).waitFor({ state: 'detached' });
    await drawer.getByRole('cell', { name: 'SavedQuery', exact: true }).waitFor();
    await screenshot(page, 'admin-role-permissions');
    await closeDialog(page);

    // A new role: added, given two permissions and a user, renamed; the user can use them at once.
    const templater = await createUser('templater', ['Public']);
    await page.getByRole('button', { name: 'Add role' }).click();
    const add = page.getByRole('dialog', { name: 'Add role' });
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await add.getByText('Missing data for required field.').waitFor();
    await add.getByLabel('Name').fill('Gamma');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await add.getByText('Already exists.').waitFor();
    await add.getByLabel('Name').fill('Template editors');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    drawer = page.getByRole('dialog', { name: /Template editors/ });
    await drawer.getByLabel('Search permissions').fill('CssTemplate');
    await drawer.getByRole('checkbox', { name: 'can_read on CssTemplate' }).check();
    await drawer.getByRole('checkbox', { name: 'can_write on CssTemplate' }).check();
    await drawer.getByText('2 of ', { exact: false }).waitFor();
    await drawer.getByRole('button', { name: 'Save permissions' }).click();
    await page.getByText('Permissions of Template editors saved').waitFor();
    await screenshot(page, 'admin-role-editor-permissions');
    await drawer.getByRole('tab', { name: /Users/ }).click();
    await drawer.getByRole('combobox', { name: 'Users with this role' }).click();
    await page.getByRole('option', { name: /\(templater\)/ }).click();
    await page.keyboard.press('Escape');
    await drawer.getByRole('button', { name: 'Save users' }).click();
    await page.getByText('Users of Template editors saved').waitFor();
    const role = await roleId("'Template editors'");
    const granted = (await t.http.get(`/api/v1/security/roles/${role}`).set(auth())).body.result;
    expect(granted.permissions.map((p: { permission_name: string; view_menu_name: string }) => `${p.permission_name} ${p.view_menu_name}`)).toEqual(['can_read CssTemplate', 'can_write CssTemplate']);
    expect(granted.user_ids).toEqual([templater]);
    const login = await t.http.post('/api/v1/security/login').send({ username: 'templater', password: 'pw-12345', provider: 'db' });
    expect((await t.http.get('/api/v1/css_template/').set({ Authorization: `Bearer ${login.body.access_token}` })).status).toBe(200);

    await drawer.getByLabel('Name').fill('Stylists');
    await drawer.getByRole('button', { name: 'Rename' }).click();
    await page.getByText('Role renamed to Stylists').waitFor();
    await screenshot(page, 'admin-role-editor-users');
    await closeDialog(page);
    await table.getByRole('button', { name: 'Stylists', exact: true }).waitFor();
    // Built-in roles offer no delete; a new one does.
    await expect(table.getByRole('button', { name: 'Delete Gamma' }).count()).resolves.toBe(0);
    await table.getByRole('button', { name: 'Delete Stylists' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await table.getByRole('button', { name: 'Stylists', exact: true }).waitFor({ state: 'detached' });
    expect((await t.http.get(`/api/v1/security/roles/${role}`).set(auth())).status).toBe(404);
    expect((await t.http.delete(`/api/v1/security/users/${templater}`).set(auth())).status).toBe(200);
  });

  it('adds, edits and deletes a row-level security rule in Settings → Row level security', async () => {
    await ensureTestExamples(t.services, { salesRows: 50 });
    await ensureExampleDatasets(t.services);
    await page.goto(`${t.url}/rowlevelsecurity/list/`);
    await page.getByText('No rules yet').waitFor();
    await page.getByRole('button', { name: 'Rule', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Add rule' });
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await add.getByText('Missing data for required field.').first().waitFor();
    await add.getByText('Select at least one dataset.').waitFor();
    await add.getByLabel('Rule name').fill('Girls for Gamma');
    await add.getByRole('combobox', { name: 'Datasets' }).click();
    await page.getByRole('option', { name: 'birth_names', exact: true }).click();
    await page.keyboard.press('Escape');
    await add.getByRole('combobox', { name: 'Roles' }).click();
    await page.getByRole('option', { name: 'Gamma', exact: true }).click();
    await page.keyboard.press('Escape');
    await add.getByLabel('Group key').fill('gender');
    await add.getByLabel('Clause').fill("gender = 'girl'");
    await screenshot(page, 'admin-rls-add');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Rule Girls for Gamma added').waitFor();
    const table = page.getByRole('table', { name: 'Rules' });
    await table.getByText("gender = 'girl'").waitFor();
    const stored = (await t.http.get('/api/v1/rowlevelsecurity/').set(auth())).body.result;
    expect(stored).toMatchObject([{ name: 'Girls for Gamma', filter_type: 'Regular', clause: "gender = 'girl'", group_key: 'gender', tables: [{ table_name: 'birth_names' }], roles: [{ name: 'Gamma' }] }]);

    // The same name again: the server's field error, under the field.
    await page.getByRole('button', { name: 'Rule', exact: true }).click();
    const again = page.getByRole('dialog', { name: 'Add rule' });
    await again.getByLabel('Rule name').fill('Girls for Gamma');
    await again.getByRole('combobox', { name: 'Datasets' }).click();
    await page.getByRole('option', { name: 'birth_names', exact: true }).click();
    await page.keyboard.press('Escape');
    await again.getByLabel('Clause').fill('1 = 1');
    await again.getByRole('button', { name: 'Add', exact: true }).click();
    await again.getByText('A rule with this name already exists.').waitFor();
    await closeDialog(page);

    // Edited into a Base rule that spares admins.
    await table.getByRole('button', { name: 'Edit Girls for Gamma' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit rule Girls for Gamma' });
    await edit.getByRole('combobox', { name: 'Filter type' }).click();
    await page.getByRole('option', { name: 'Base', exact: true }).click();
    await edit.getByText('The roles the filter does not apply to.').waitFor();
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Changes to Girls for Gamma saved').waitFor();
    await table.getByText('Base', { exact: true }).waitFor();
    await screenshot(page, 'admin-rls-list');
    expect((await t.http.get(`/api/v1/rowlevelsecurity/${stored[0].id}`).set(auth())).body.result.filter_type).toBe('Base');

    await table.getByRole('button', { name: 'Delete Girls for Gamma' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('No rules yet').waitFor();
    expect((await t.http.get('/api/v1/rowlevelsecurity/').set(auth())).body.count).toBe(0);
  });

  it('shows the action log: who changed what, filtered by action and user', async () => {
    await page.goto(`${t.url}/actionlog/list/`);
    const log = page.getByRole('table', { name: 'Action log' });
    await log.getByText('trpc role.setPermissions', { exact: true }).first().waitFor();
    await page.getByRole('textbox', { name: 'Search action', exact: true }).fill('role.rename');
    await expect.poll(async () => log.locator('tbody tr').count()).toBe(1);
    await log.getByText('trpc role.rename', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Search action', exact: true }).fill('');
    await log.getByRole('button', { name: 'View' }).first().click();
    await page.getByText('"status": 200', { exact: false }).first().waitFor();
    await screenshot(page, 'admin-action-log');
    await page.keyboard.press('Escape');
    // The menu leads there for admins.
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Action log' }).waitFor();
    await page.keyboard.press('Escape');
  });

  // 30 users made one by one (each password hashed) before the screen: more than the file's minute on a busy machine.
  it('pages, sorts, filters and bulk-deletes a Users list longer than one page', { timeout: 150_000 }, async () => {
    for (let i = 1; i <= 30; i++) await createUser(`list_user_${String(i).padStart(2, '0')}`, ['Gamma']);
    const total = (await t.http.get('/api/v1/security/users/').set(auth())).body.count as number;
    expect(total).toBe(33);

    await page.goto(`${t.url}/users/list/`);
    await page.getByText(`1–25 of ${total}`).waitFor();
    await expect(usersTable().locator('tbody tr').count()).resolves.toBe(25);

    // Email: a first click sorts ascending, a second descending; each is the server's order.
    let q = nextListQuery();
    await usersTable().getByRole('button', { name: 'Email', exact: true }).click();
    expect(sortOf(await q)).toEqual({ column: 'email', direction: 'asc' });
    const asc = await restEmails('(order_column:email,order_direction:asc,page:0,page_size:25)');
    await expect.poll(shownEmails).toEqual(asc);
    await expect(usersTable().getByRole('columnheader', { name: 'Email', exact: true }).getAttribute('aria-sort')).resolves.toBe('ascending');
    q = nextListQuery();
    await usersTable().getByRole('button', { name: 'Email', exact: true }).click();
    expect(sortOf(await q)).toEqual({ column: 'email', direction: 'desc' });
    const desc = await restEmails('(order_column:email,order_direction:desc,page:0,page_size:25)');
    await expect.poll(shownEmails).toEqual(desc);
    expect(desc[0]).toBe('list_user_30@example.com');
    await screenshot(page, 'admin-users-sorted-desc');

    // Name has no text accessor: it must start ascending too.
    q = nextListQuery();
    await usersTable().getByRole('button', { name: 'Name', exact: true }).click();
    expect(sortOf(await q)).toEqual({ column: 'first_name', direction: 'asc' });
    await expect.poll(shownEmails).toEqual(await restEmails('(order_column:first_name,order_direction:asc,page:0,page_size:25)'));

    q = nextListQuery();
    await page.getByRole('button', { name: 'Page 2' }).click();
    expect(await q).toMatch(/[(,]page:1[,)]/);
    await page.getByText(`26–${total} of ${total}`).waitFor();
    await expect.poll(shownEmails).toEqual(await restEmails('(order_column:first_name,order_direction:asc,page:1,page_size:25)'));
    await screenshot(page, 'admin-users-page-2');
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.getByText(`1–25 of ${total}`).waitFor();

    // A filter narrows the list on the server and starts again from its first page.
    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.getByText(`26–${total} of ${total}`).waitFor();
    await page.getByLabel('Search username', { exact: true }).fill('list_user_1');
    await page.getByText('1–10 of 10').waitFor();
    await expect.poll(async () => (await shownEmails()).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `list_user_${10 + i}@example.com`));
    await expect(page.getByRole('button', { name: 'Page 2' }).count()).resolves.toBe(0);

    await usersTable().getByRole('checkbox', { name: 'Select all rows' }).check();
    const bulk = page.getByRole('toolbar', { name: 'Bulk actions' });
    await bulk.getByText('10 selected').waitFor();
    await screenshot(page, 'admin-users-bulk');
    await bulk.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('Are you sure you want to delete the 10 selected users?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted 10 users').waitFor();
    await page.getByText('No results match your filters').waitFor();
    expect((await t.http.get('/api/v1/security/users/').set(auth())).body.count).toBe(total - 10);
    await page.getByLabel('Search username', { exact: true }).fill('');
    await page.getByText(`1–${total - 10} of ${total - 10}`).waitFor();
    await screenshot(page, 'admin-users-after-bulk-delete');
  });
});
