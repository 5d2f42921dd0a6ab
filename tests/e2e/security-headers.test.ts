import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureClientBuilt, screenshot } from './browser';
import { openSqlLabBrowser, runAndWait, typeSql } from './sqllab.page';

/**
 * Issue 16, security headers: every answer says nosniff and a referrer policy; pages carry a Content-Security-Policy
 * (scripts from this origin and the hashed inline script only; framing by FRAME_ANCESTORS), which SQL Lab and the
 * screens run under without a refusal. The chart gallery checks the same for every chart type and dashboard.
 */
describe('security headers', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let examples: { id: number };
  const refused: string[] = [];

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true, env: { FRAME_ANCESTORS: 'https://intranet.example, https://wiki.example' } });
    examples = await ensureTestExamples(t.services, { salesRows: 50 });
    ({ browser, page } = await openSqlLabBrowser(t.url));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    page.on('pageerror', (e) => refused.push(String(e)));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('pages carry the policy with the inline script hashed and the configured frame ancestors; every answer says nosniff', async () => {
    const index = await t.http.get('/sqllab/');
    expect(index.status).toBe(200);
    const policy = index.headers['content-security-policy'] as string;
    const inline = /<script>([\s\S]*?)<\/script>/.exec(readFileSync(join(__dirname, '../../client/dist/index.html'), 'utf8'))![1];
    expect(policy).toContain(`script-src 'self' 'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("frame-ancestors 'self' https://intranet.example https://wiki.example");
    expect(policy).not.toContain("'unsafe-eval'");
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    // The page is revalidated each time; its hashed scripts are cached for good (no revalidation per visit).
    expect(index.headers['cache-control']).toBe('private, no-cache');
    const script = /src="(\/static\/assets\/[^"]+\.js)"/.exec(index.text)![1]!;
    expect((await t.http.get(script)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Scripts are sent compressed, from the build's brotli and gzip copies, to browsers that accept them.
    const built = readFileSync(join(__dirname, '../../client/dist', script.replace('/static/', '')));
    for (const [accept, encoding] of [['br, gzip', 'br'], ['gzip', 'gzip'], ['identity', undefined]] as const) {
      const res = await fetch(`${t.url}${script}`, { headers: { 'accept-encoding': accept } });
      expect(res.headers.get('content-encoding') ?? undefined).toBe(encoding);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      // fetch decodes it: the same script either way.
      expect(Buffer.from(await res.arrayBuffer()).equals(built)).toBe(true);
    }
    // Answers over 1 KB are compressed as the client accepts (brotli, gzip), as Superset's Flask-Compress does.
    const plain = await fetch(`${t.url}/api/v1/_openapi`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const document = await plain.text();
    expect(document.length).toBeGreaterThan(1024);
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${t.url}/api/v1/_openapi`, { headers: { 'accept-encoding': encoding } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(await res.text()).toBe(document);
    }
    const api = await t.http.get('/api/v1/menu/');
    expect(api.status).toBe(401);
    // A short answer is sent as is.
    expect(api.headers['content-encoding']).toBeUndefined();
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(api.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(api.headers['content-security-policy']).toBeUndefined();

    const off = await startTestApp({ env: { TALISMAN_ENABLED: 'false' } });
    const plainApp = await startTestApp({ env: { COMPRESS_REGISTER: 'false' } });
    try {
      expect((await plainApp.http.get('/api/v1/_openapi').set('accept-encoding', 'br, gzip')).headers['content-encoding']).toBeUndefined();
    } finally {
      await plainApp.close();
    }
    try {
      expect((await off.http.get('/sqllab/')).headers['content-security-policy']).toBeUndefined();
      expect((await off.http.get('/api/v1/_openapi').set('accept-encoding', 'br, gzip')).headers['content-encoding']).toBe('br');
    } finally {
      await off.close();
    }
  });

  it("a page comes with its data: the bootstrap, the session's CSRF token and, on Explore, Explore's bootstrap answer", async () => {
    const dataOf = (html: string) => JSON.parse(/<script type="application\/json" id="meridian-page-data">([\s\S]*?)<\/script>/.exec(html)![1]!);
    const anonymous = dataOf((await t.http.get('/login/')).text);
    expect(anonymous.bootstrap.user).toBeNull();
    expect(anonymous.csrfToken).toBeNull();
    expect(anonymous.explore).toBeUndefined();

    // A chart whose name would end the page's script element if it were written raw.
    const bearer = { Authorization: `Bearer ${await t.token()}` };
    // A dataset of its own (a retried test makes another).
    const dataset = (await t.http.post('/api/v1/dataset/').set(bearer).send({ database: examples.id, schema: 'main', table_name: `served_${Date.now()}`, sql: 'SELECT * FROM birth_names' })).body;
    const name = '</script><script>document.title="bent"</script>';
    const created = await t.http.post('/api/v1/chart/').set(bearer).send({ slice_name: name, viz_type: 'table', datasource_id: dataset.id, datasource_type: 'table', params: '{}' });
    expect(created.status, created.text).toBe(201);

    const login = await t.http.post('/login/').send({ username: 'admin', password: 'admin' });
    const cookie = login.headers['set-cookie'] as unknown as string[];
    const page = await t.http.get(`/explore/?slice_id=${created.body.id}`).set('Cookie', cookie);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.text).not.toContain('<script>document.title');
    const data = dataOf(page.text);
    expect(data.bootstrap.user.username).toBe('admin');
    expect(data.bootstrap).toEqual((await t.http.get('/trpc/security.bootstrap').set('Cookie', cookie)).body.result.data);
    expect(data.csrfToken).toBe((await t.http.get('/api/v1/security/csrf_token/').set('Cookie', cookie)).body.result);
    expect(data.explore.params).toEqual({ slice_id: created.body.id });
    expect(data.explore.result.slice.slice_name).toBe(name);
    // The REST call's own answer (but for "a second ago" against "now", humanized and in `modified`).
    const unhumanized = (value: unknown) => JSON.parse(JSON.stringify(value, (key, v) => (key.endsWith('humanized') || key === 'modified' ? undefined : v)));
    expect(unhumanized(data.explore.result)).toEqual(unhumanized((await t.http.get(`/api/v1/explore/?slice_id=${created.body.id}`).set('Cookie', cookie)).body.result));
    // None with a form_data_key (a reload's last edits may still be on their way to it), nor for a chart that is not
    // there (the client's own call shows the error).
    expect(dataOf((await t.http.get(`/explore/?slice_id=${created.body.id}&form_data_key=abc`).set('Cookie', cookie)).text).explore).toBeUndefined();
    expect(dataOf((await t.http.get('/explore/?slice_id=999999').set('Cookie', cookie)).text).explore).toBeUndefined();
  });

  it('SQL Lab and the settings screens run under the policy without a refusal', async () => {
    await page.goto(`${t.url}/sqllab/`);
    await typeSql(page, 'SELECT 1 AS one');
    await runAndWait(page);
    await page.goto(`${t.url}/rowlevelsecurity/list/`);
    await page.getByText('No rules yet').waitFor();
    await page.goto(`${t.url}/chart/list/`);
    await page.getByRole('heading', { name: 'Charts' }).waitFor();
    await screenshot(page, 'security-headers-charts');
    // Swagger UI too: its bundle and its start script come from this origin.
    await page.goto(`${t.url}/swagger/v1`);
    await page.locator('.swagger-ui .opblock').first().waitFor();
    await screenshot(page, 'security-headers-swagger');
    expect(refused).toEqual([]);
  });
});
