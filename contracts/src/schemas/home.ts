/** One entry of Superset's `/api/v1/log/recent_activity/` answer; favourites use the same shape. */
export interface RecentActivity {
  action: string;
  item_type: string;
  item_title: string;
  item_url: string;
  time: number;
  time_delta_humanized: string;
}
