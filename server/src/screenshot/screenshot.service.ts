import { createHash } from 'node:crypto';
import type { CacheStore } from '../cache/cache-store';
import type { ChartService } from '../chart/chart.service';
import type { DashboardService } from '../dashboard/dashboard.service';
import { Forbidden, Unprocessable } from '../errors/domain-errors';
import type { Logger } from '../logger';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import { SESSION_COOKIE } from '../security/security.rest';
import { chartDigest, dashboardDigest } from './digest';
import { NO_BROWSER, type ScreenshotRenderer } from './renderer';

/** How long a picture stays cached (Superset's THUMBNAIL_CACHE_CONFIG default: a day). */
const CACHE_SECONDS = 24 * 60 * 60;
const CHART_VIEWPORT = { width: 800, height: 600 };
const DASHBOARD_VIEWPORT = { width: 1600, height: 1200 };
const RENDER_TIMEOUT_MS = 60_000;

type Kind = 'chart' | 'dashboard';
/** What a picture is for: a screenshot (cache_screenshot, reports) or a list card's thumbnail. */
type Use = 'screenshot' | 'thumbnail';

/** A picture's state: there (PNG bytes), being made, or at another digest (the object changed since). */
export type Picture = { state: 'ready'; png: Buffer } | { state: 'pending' } | { state: 'moved'; digest: string };


/**
 * Chart and dashboard screenshots and thumbnails (Superset's screenshot, cache_screenshot and thumbnail
 * endpoints): drawn by the renderer as the caller, keyed by a digest of what they show, cached in the shared
 * cache store (so every web process serves them), made once at a time per digest.
 */
export class ScreenshotService {
  private readonly making = new Map<string, Promise<void>>();

  constructor(private readonly deps: { security: SecurityService; charts: ChartService; dashboards: DashboardService; cache: CacheStore; renderer: ScreenshotRenderer; logger: Logger }) {}

  /** The digest a chart's or dashboard's pictures are stored under now (it changes when the object does). */
  async digest(actor: Actor | null, kind: Kind, id: number): Promise<string> {
    if (kind === 'chart') return chartDigest(await this.deps.charts.get(actor, id));
    return dashboardDigest((await this.deps.dashboards.get(actor, id)) as Parameters<typeof dashboardDigest>[0]);
  }

  /**
   * Whose eyes a picture is for: row-level security and data access follow roles, so users of the same roles see
   * the same rows and share a picture, and nobody is shown a picture of rows drawn for other roles.
   */
  private viewer(actor: Actor): string {
    return createHash('sha256').update(Object.keys(actor.roles ?? {}).sort().join('\n')).digest('hex').slice(0, 16);
  }

  /**
   * A chart's thumbnail is its screenshot; a dashboard's is its top, a viewport high (Superset's), drawn without
   * waiting for the charts further down: a tall dashboard's card is not the whole page drawn and shrunk.
   */
  private use(kind: Kind, thumbnail: boolean): Use {
    return kind === 'dashboard' && thumbnail ? 'thumbnail' : 'screenshot';
  }

  private key(kind: Kind, id: number, digest: string, actor: Actor, use: Use) {
    return `screenshot:${kind}:${id}:${digest}:${use}:${this.viewer(actor)}`;
  }

  /** Starts drawing a picture unless it is cached (or `force`) or already being drawn; resolves when started. */
  async request(actor: Actor | null, kind: Kind, id: number, baseUrl: string, opts: { force?: boolean; known?: string; thumbnail?: boolean } = {}): Promise<string> {
    const { force = false, known, thumbnail = false } = opts;
    if (!actor || actor.guest) throw new Forbidden();
    // No browser on this machine: said at once, rather than a picture that never comes.
    if (!this.deps.renderer.available()) throw new Unprocessable(NO_BROWSER(this.deps.renderer.executablePath));
    const digest = known ?? (await this.digest(actor, kind, id));
    const use = this.use(kind, thumbnail);
    const key = this.key(kind, id, digest, actor, use);
    if (this.making.has(key) || (!force && (await this.deps.cache.get(key)))) return digest;
    const work = this.draw(actor, kind, id, baseUrl, { viewportOnly: use === 'thumbnail' })
      .then((png) => this.deps.cache.set(key, png.toString('base64'), CACHE_SECONDS))
      .catch((error) => this.deps.logger.warn({ err: error, kind, id }, 'screenshot failed'))
      .finally(() => this.making.delete(key));
    this.making.set(key, work);
    return digest;
  }

  /** Stops the renderer's browser (pictures being drawn fail and are not cached). */
  async close(): Promise<void> {
    await this.deps.renderer.close();
  }

  /** Waits for the pictures of a digest being drawn, for whoever (tests use it). */
  async settled(kind: Kind, id: number, digest: string): Promise<void> {
    const prefix = `screenshot:${kind}:${id}:${digest}:`;
    await Promise.all([...this.making].filter(([key]) => key.startsWith(prefix)).map(([, work]) => work));
  }

  /** A picture by digest: there, being made, or (thumbnails) at the current digest. */
  async picture(actor: Actor | null, kind: Kind, id: number, digest: string, opts: { redirectStale: boolean; baseUrl: string }): Promise<Picture | null> {
    const current = await this.digest(actor, kind, id);
    if (opts.redirectStale && digest !== current) return { state: 'moved', digest: current };
    // Thumbnails follow the current digest; screenshots are served by the digest they were drawn at.
    const thumbnail = opts.redirectStale;
    const key = this.key(kind, id, digest, actor!, this.use(kind, thumbnail));
    const cached = await this.deps.cache.get(key);
    if (cached) return { state: 'ready', png: Buffer.from(cached, 'base64') };
    if (this.making.has(key)) return { state: 'pending' };
    if (!thumbnail) return null;
    // A thumbnail asked for and not cached: drawn now, answered later.
    await this.request(actor, kind, id, opts.baseUrl, { known: current, thumbnail: true });
    return { state: 'pending' };
  }

  /**
   * Draws a chart or dashboard afresh as `actor` (reports use it directly: a report's picture is never a cached one),
   * as PNG or PDF, `width` pixels wide when given.
   */
  async draw(actor: Actor, kind: Kind, id: number, baseUrl: string, opts: { format?: 'png' | 'pdf'; width?: number | null; timeoutMs?: number; signal?: AbortSignal; viewportOnly?: boolean } = {}): Promise<Buffer> {
    const session = await this.deps.security.tokens.sign('session', actor.userId);
    const url = kind === 'chart' ? `${baseUrl}/explore/?slice_id=${id}&standalone=1` : `${baseUrl}/superset/dashboard/${id}/?standalone=3`;
    const viewport = kind === 'chart' ? CHART_VIEWPORT : DASHBOARD_VIEWPORT;
    return this.deps.renderer.render({
      url,
      cookie: { name: SESSION_COOKIE, value: session },
      user: actor.userId,
      selector: kind === 'chart' ? '[data-testid="explore-chart"]' : '[data-testid="dashboard-page"]',
      done: ['rendered', 'failed'],
      viewport: opts.width ? { width: opts.width, height: Math.round((opts.width * viewport.height) / viewport.width) } : viewport,
      timeoutMs: opts.timeoutMs ?? RENDER_TIMEOUT_MS,
      format: opts.format,
      signal: opts.signal,
      viewportOnly: opts.viewportOnly,
    });
  }
}
