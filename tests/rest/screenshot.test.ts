import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { ensureExampleDashboards } from '../../server/src/dashboard/example-dashboards';
import { startTestApp, type TestApp } from '../helpers/app';
import { pngFacts } from '../helpers/png';
import { ensureClientBuilt } from '../e2e/browser';
import { layoutOfRows, positionFromLayout } from '../../contracts/src/dashboard/layout-reducer';
import { bearer } from './sqllab.helpers';

/** Keeps a picture with the browser tests' screenshots, to be looked at. */
function keep(name: string, png: Buffer): void {
  mkdirSync('test-results/screens', { recursive: true });
  writeFileSync(join('test-results/screens', `${name}.png`), png);
}

// Issue 15: chart and dashboard screenshots and thumbnails, drawn by headless Chromium as the caller, cached.
describe('screenshots and thumbnails', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let chart: number;
  let dashboard: number;
  const get = (path: string) => t.http.get(path).set(bearer(admin)).buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });
  const waitImage = async (path: string) => {
    for (let i = 0; i < 300; i++) {
      const res = await get(path);
      if (res.status === 200) return res;
      expect(res.status).toBe(202);
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no image at ${path}`);
  };

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-shots-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 200 });
    await ensureExampleDatasets(t.services);
    await ensureExampleDashboards(t.services);
    chart = (await t.http.get('/api/v1/chart/').query({ q: '(filters:!((col:viz_type,opr:eq,value:echarts_timeseries_bar)))' }).set(bearer(admin))).body.ids[0] ?? (await t.http.get('/api/v1/chart/').set(bearer(admin))).body.ids[0];
    dashboard = (await t.http.get('/api/v1/dashboard/').set(bearer(admin))).body.ids[0];
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("draws a chart's screenshot on request, serves it by digest, and a thumbnail follows the chart's current digest", async () => {
    const asked = await t.http.get(`/api/v1/chart/${chart}/cache_screenshot/`).set(bearer(admin));
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ cache_key: expect.stringMatching(/^[0-9a-f]{32}$/), chart_url: `/explore/?slice_id=${chart}&standalone=1`, image_url: `/api/v1/chart/${chart}/screenshot/${asked.body.cache_key}/` });
    const shot = await waitImage(asked.body.image_url);
    expect(shot.headers['content-type']).toBe('image/png');
    keep('screenshot-chart', shot.body);
    const facts = pngFacts(shot.body);
    expect(facts.width).toBeGreaterThan(300);
    expect(facts.colours).toBeGreaterThan(20);

    // The thumbnail at a stale digest redirects to the current one, which is the same picture.
    const stale = await t.http.get(`/api/v1/chart/${chart}/thumbnail/0123456789abcdef/`).set(bearer(admin)).redirects(0);
    expect(stale.status).toBe(302);
    expect(stale.headers.location).toBe(`/api/v1/chart/${chart}/thumbnail/${asked.body.cache_key}/`);
    expect((await waitImage(stale.headers.location)).body.equals(shot.body)).toBe(true);
    // A digest never drawn is a 404 for screenshot/.
    expect((await get(`/api/v1/chart/${chart}/screenshot/0123456789abcdef/`)).status).toBe(404);
    // A changed chart has a new digest.
    const params = JSON.parse((await t.http.get(`/api/v1/chart/${chart}`).set(bearer(admin))).body.result.params);
    await t.http.put(`/api/v1/chart/${chart}`).set(bearer(admin)).send({ params: JSON.stringify({ ...params, show_legend: !params.show_legend }) });
    const after = await t.http.get(`/api/v1/chart/${chart}/thumbnail/${asked.body.cache_key}/`).set(bearer(admin)).redirects(0);
    expect(after.status).toBe(302);
  }, 120_000);

  it("draws a dashboard's screenshot and thumbnail; a Gamma without access gets 403s", async () => {
    const asked = await t.http.post(`/api/v1/dashboard/${dashboard}/cache_dashboard_screenshot/`).set(bearer(admin));
    expect(asked.status).toBe(202);
    const shot = await waitImage(asked.body.image_url);
    keep('screenshot-dashboard', shot.body);
    const facts = pngFacts(shot.body);
    expect(facts.width).toBeGreaterThan(800);
    expect(facts.colours).toBeGreaterThan(20);
    const thumb = await waitImage(`/api/v1/dashboard/${dashboard}/thumbnail/${asked.body.cache_key}/`);
    expect(thumb.headers['content-type']).toBe('image/png');
    const nobody = await t.userWithRoles('nobody_shots', ['Public']);
    expect((await t.http.get(`/api/v1/dashboard/${dashboard}/thumbnail/${asked.body.cache_key}/`).set(bearer(nobody))).status).toBe(403);
  }, 120_000);

  it('draws every chart of a dashboard taller than the viewport, down to the last', async () => {
    // Charts below the fold are drawn only as they come near: the picture grows the viewport to the whole page.
    const ids: number[] = (await t.http.get('/api/v1/chart/').query({ q: '(page_size:8,order_column:id,order_direction:asc)' }).set(bearer(admin))).body.ids;
    expect(ids.length).toBe(8);
    const rows = ids.map((chartId) => [{ chartId, width: 12, height: 50 }]);
    const created = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Tall', position_json: JSON.stringify(positionFromLayout(layoutOfRows('Tall', rows))) });
    expect(created.status).toBe(201);
    const asked = await t.http.post(`/api/v1/dashboard/${created.body.id}/cache_dashboard_screenshot/`).set(bearer(admin));
    const shot = await waitImage(asked.body.image_url);
    keep('screenshot-dashboard-tall', shot.body);
    const facts = pngFacts(shot.body);
    // Eight rows of 400 pixels and their margins, in a 1,200-pixel viewport.
    expect(facts.height).toBeGreaterThan(8 * 400);
    // The last chart's box (its lowest 300 pixels) holds a drawing, not a blank cell or a spinner.
    expect(pngFacts(shot.body, [-320, -20]).colours).toBeGreaterThan(20);

    // Its thumbnail is its top, a viewport high, as Superset's: not the whole page drawn and shrunk into a card.
    const thumb = await waitImage(`/api/v1/dashboard/${created.body.id}/thumbnail/${asked.body.cache_key}/`);
    keep('thumbnail-dashboard-tall', thumb.body);
    const top = pngFacts(thumb.body);
    expect(top.width).toBe(facts.width);
    expect(top.height).toBeLessThanOrEqual(1200);
    expect(top.height).toBeGreaterThan(800);
    // The charts in view are drawn: the second row (y 450-850) holds a drawing.
    expect(pngFacts(thumb.body, [450, 850]).colours).toBeGreaterThan(20);
  }, 120_000);

  it('says at once when no browser is there to draw with', async () => {
    const bare = await startTestApp({ env: { CHROMIUM_PATH: '/nonexistent/chromium' } });
    try {
      const token = await bare.token();
      const res = await bare.http.post('/api/v1/dashboard/1/cache_dashboard_screenshot/').set(bearer(token));
      expect([404, 422]).toContain(res.status);
      const dash = (await bare.http.post('/api/v1/dashboard/').set(bearer(token)).send({ dashboard_title: 'x' })).body.id;
      const refused = await bare.http.post(`/api/v1/dashboard/${dash}/cache_dashboard_screenshot/`).set(bearer(token));
      expect(refused.status).toBe(422);
      expect(refused.body.message).toBe('No browser to render screenshots with: /nonexistent/chromium is missing (set CHROMIUM_PATH).');
    } finally {
      await bare.close();
    }
  });
});

