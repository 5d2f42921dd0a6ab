import type { RecentActivity } from '@meridian/contracts';
import { humanizedDelta } from '@meridian/contracts/rules/dates';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { HomeRepository } from './home.repository';


const URLS: Record<string, (id: number) => string> = {
  query: (id) => `/sqllab/?queryId=${id}`,
  saved_query: (id) => `/sqllab/?savedQueryId=${id}`,
  slice: (id) => `/explore/?slice_id=${id}`,
  dashboard: (id) => `/superset/dashboard/${id}/`,
};

/** The home page's data: what the user viewed and ran lately, and what they starred. */
export class HomeService {
  constructor(private readonly deps: { home: HomeRepository; security: SecurityService }) {}

  /** Superset's `/log/recent_activity/`: charts and dashboards viewed, plus (Meridian) the SQL run; `distinct` lists each item once. */
  async recentActivity(actor: Actor | null, pageSize = 10, distinct = true): Promise<RecentActivity[]> {
    this.deps.security.require(actor, 'can_read', 'Me');
    const now = Date.now();
    return (await this.deps.home.recentActivity(actor.userId, pageSize, distinct)).map((row) => ({
      action: row.action,
      item_type: row.item_type,
      item_title: row.item_title,
      item_url: URLS[row.item_type](row.item_id),
      time: row.time.getTime(),
      time_delta_humanized: humanizedDelta(row.time, now),
    }));
  }

  async favorites(actor: Actor | null, pageSize = 10): Promise<RecentActivity[]> {
    this.deps.security.require(actor, 'can_read', 'Me');
    const now = Date.now();
    return (await this.deps.home.favorites(actor.userId, pageSize)).map((row) => ({
      action: 'favorite',
      item_type: row.item_type,
      item_title: row.item_title,
      item_url: URLS[row.item_type](row.item_id),
      time: row.time.getTime(),
      time_delta_humanized: humanizedDelta(row.time, now),
    }));
  }
}
