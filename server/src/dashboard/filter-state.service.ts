import { randomBytes } from 'node:crypto';
import type { CacheStore } from '../cache/cache-store';
import { Forbidden, NotFound } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { DashboardService } from './dashboard.service';

/** Kept 90 days, as Superset's FILTER_STATE_CACHE_CONFIG. */
const FILTER_STATE_TTL_SECONDS = 90 * 24 * 3600;

interface Entry {
  owner: number;
  value: string;
}

/**
 * A dashboard's data mask kept for a reload (spec 02 §3 Data mask; Superset's DashboardFilterStateRestApi):
 * `POST` gives a key that the address holds as `native_filters_key`. With a `tab_id` (one per browser
 * tab), the same user's revisit of the dashboard from that tab reuses its key.
 */
export class FilterStateService {
  constructor(private readonly deps: { security: SecurityService; dashboards: DashboardService; cache: CacheStore }) {}

  private entryKey = (dashboardId: number, key: string) => `dashboard-filter-state:${dashboardId}:${key}`;
  private contextKey = (actor: Actor, dashboardId: number, tabId: number) => `dashboard-filter-state-tab:${actor.userId}:${dashboardId}:${tabId}`;

  /** The dashboard's id, when the actor may read it (a 404 otherwise). */
  private async dashboardId(actor: Actor, idOrSlug: string | number): Promise<number> {
    return (await this.deps.dashboards.record(actor, idOrSlug)).id;
  }

  private async load(dashboardId: number, key: string): Promise<Entry | null> {
    const text = await this.deps.cache.get(this.entryKey(dashboardId, key));
    return text ? (JSON.parse(text) as Entry) : null;
  }

  async create(actor: Actor | null, idOrSlug: string | number, value: string, tabId?: number): Promise<string> {
    this.deps.security.require(actor, 'can_write', 'DashboardFilterStateRestApi');
    const dashboardId = await this.dashboardId(actor, idOrSlug);
    let key = tabId !== undefined ? await this.deps.cache.get(this.contextKey(actor, dashboardId, tabId)) : null;
    if (key) {
      const current = await this.load(dashboardId, key);
      if (current && current.owner !== actor.userId) key = null;
    }
    key ??= randomBytes(12).toString('base64url');
    await this.deps.cache.set(this.entryKey(dashboardId, key), JSON.stringify({ owner: actor.userId, value } satisfies Entry), FILTER_STATE_TTL_SECONDS);
    if (tabId !== undefined) await this.deps.cache.set(this.contextKey(actor, dashboardId, tabId), key, FILTER_STATE_TTL_SECONDS);
    return key;
  }

  async update(actor: Actor | null, idOrSlug: string | number, key: string, value: string, tabId?: number): Promise<string> {
    this.deps.security.require(actor, 'can_write', 'DashboardFilterStateRestApi');
    const dashboardId = await this.dashboardId(actor, idOrSlug);
    const current = await this.load(dashboardId, key);
    if (!current) throw new NotFound();
    if (current.owner !== actor.userId) throw new Forbidden();
    await this.deps.cache.set(this.entryKey(dashboardId, key), JSON.stringify({ owner: actor.userId, value } satisfies Entry), FILTER_STATE_TTL_SECONDS);
    if (tabId !== undefined) await this.deps.cache.set(this.contextKey(actor, dashboardId, tabId), key, FILTER_STATE_TTL_SECONDS);
    return key;
  }

  /** Anyone who may read the dashboard may read a state shared with them (the link is the secret). */
  async get(actor: Actor | null, idOrSlug: string | number, key: string): Promise<string> {
    this.deps.security.require(actor, 'can_read', 'DashboardFilterStateRestApi');
    const dashboardId = await this.dashboardId(actor, idOrSlug);
    const current = await this.load(dashboardId, key);
    if (!current) throw new NotFound();
    return current.value;
  }

  async delete(actor: Actor | null, idOrSlug: string | number, key: string): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'DashboardFilterStateRestApi');
    const dashboardId = await this.dashboardId(actor, idOrSlug);
    const current = await this.load(dashboardId, key);
    if (!current) throw new NotFound();
    if (current.owner !== actor.userId) throw new Forbidden();
    await this.deps.cache.delete(this.entryKey(dashboardId, key));
  }
}
