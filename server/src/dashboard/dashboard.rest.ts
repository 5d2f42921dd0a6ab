import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DashboardCopySchema, DashboardCreateSchema, DashboardPermalinkSchema, DashboardUpdateSchema } from '@meridian/contracts';
import { withExtra } from '../rest/related';
import { baseUrl, columnParams, decodeRison, idList, pageOf, parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { DASHBOARD_DISTINCT_COLUMNS, DASHBOARD_ORDER_COLUMNS } from './dashboard.repository';
import { DASHBOARD_RELATED_COLUMNS } from './dashboard.service';

const tags = ['Dashboards'];

/** Superset's DashboardColorsConfigUpdateSchema: the colour keys of json_metadata. */
const DashboardColorsSchema = z.object({
  color_namespace: z.string().nullish(),
  color_scheme: z.string().nullish(),
  label_colors: z.record(z.string(), z.string()).optional(),
  map_label_colors: z.record(z.string(), z.string()).optional(),
  shared_label_colors: z.array(z.string()).optional(),
  color_scheme_domain: z.array(z.string()).optional(),
});
const ListParams = z.object({ q: z.unknown().optional() });
const IdOrSlug = z.object({ id_or_slug: z.string().min(1) });


/** `_info` of /api/v1/dashboard/: Superset's DashboardRestApi search filters and permissions. */
const DASHBOARD_INFO: InfoSpec = {
  view: 'Dashboard',
  title: 'Dashboard',
  add: DashboardCreateSchema,
  edit: DashboardUpdateSchema,
  filters: {
    id: [{ operator: 'dashboard_is_favorite', name: 'Is favorite' }, { operator: 'dashboard_is_certified', name: 'Is certified' }],
    dashboard_title: [{ operator: 'title_or_slug', name: 'Title or Slug' }, 'ct', 'eq', 'sw', 'ew'],
    slug: ['eq', 'ct'],
    published: ['eq'],
    owners: ['rel_m_m', 'nrel_m_m'],
    roles: ['rel_m_m'],
    created_by: ['rel_o_m'],
    changed_by: ['rel_o_m'],
    certified_by: [{ operator: 'dashboard_is_certified', name: 'Is certified' }],
  },
  permissions: ['can_read', 'can_write', 'can_export'],
};

/** /api/v1/dashboard/ as Superset's DashboardRestApi. */
export function registerDashboardRest(app: FastifyInstance, services: Services): void {
  const { dashboards } = services;
  route(app, { method: 'GET', url: '/api/v1/dashboard/', list: { title: 'List Dashboard', orderColumns: DASHBOARD_ORDER_COLUMNS }, permission: ['can_read', 'Dashboard'], summary: 'List dashboards (title or slug, owners, created_by, published, favourite, certified)', tags, query: ListParams }, ({ actor, query }) =>
    dashboards.list(actor, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/dashboard/favorite_status/', permission: ['can_read', 'Dashboard'], summary: 'Favourite status of dashboards (q=!(ids))', tags, query: ListParams, rison: true }, async ({ actor, query }) => ({
    result: await dashboards.favoriteStatus(actor, idList(query.q, 'dashboard')),
  }));
  route(
    app,
    { method: 'GET', url: '/api/v1/dashboard/distinct/:column', permission: ['can_read', 'Dashboard'], summary: 'Distinct values of a dashboard column', tags, params: columnParams(Object.keys(DASHBOARD_DISTINCT_COLUMNS) as Array<keyof typeof DASHBOARD_DISTINCT_COLUMNS>), query: ListParams },
    ({ actor, params, query }) => dashboards.distinct(actor, params.column, pageOf(decodeRison(query.q))),
  );
  route(app, { method: 'GET', url: '/api/v1/dashboard/_info', permission: ['can_read', 'Dashboard'], summary: "What can be added, edited and filtered, and the caller's permissions on dashboards", tags, query: ListParams, rison: true }, ({ actor, query }) =>
    infoAnswer(DASHBOARD_INFO, actor!, query.q),
  );
  route(
    app,
    { method: 'GET', url: '/api/v1/dashboard/related/:column', permission: ['can_read', 'Dashboard'], summary: 'Choices for a related field (owners, created_by, changed_by, roles)', tags, params: columnParams(DASHBOARD_RELATED_COLUMNS), query: ListParams, rison: true },
    ({ actor, params, query }) => withExtra(dashboards.related(actor, params.column, pageOf(query.q))),
  );
  route(app, { method: 'GET', url: '/api/v1/dashboard/permalink/:key', permission: ['can_read', 'DashboardPermalinkRestApi'], summary: 'Read a dashboard permalink', tags, params: z.object({ key: z.string() }) }, ({ actor, params }) => dashboards.permalink(actor, params.key));
  route(app, { method: 'GET', url: '/api/v1/dashboard/:id_or_slug', permission: ['can_read', 'Dashboard'], summary: 'Get a dashboard by id or slug', tags, params: IdOrSlug }, async ({ actor, params }) => {
    const result = await dashboards.get(actor, params.id_or_slug);
    return { id: result.id, result };
  });
  route(app, { method: 'GET', url: '/api/v1/dashboard/:id_or_slug/charts', permission: ['can_read', 'Dashboard'], summary: "A dashboard's charts", tags, params: IdOrSlug }, async ({ actor, params }) => ({
    result: await dashboards.charts(actor, params.id_or_slug),
  }));
  route(app, { method: 'GET', url: '/api/v1/dashboard/:id_or_slug/datasets', permission: ['can_read', 'Dashboard'], summary: "The datasets of a dashboard's charts", tags, params: IdOrSlug }, async ({ actor, params }) => ({
    result: await dashboards.datasets(actor, params.id_or_slug),
  }));
  route(app, { method: 'GET', url: '/api/v1/dashboard/:id_or_slug/tabs', permission: ['can_read', 'Dashboard'], summary: "A dashboard's tabs, by id and as a tree", tags, params: IdOrSlug }, async ({ actor, params }) => ({
    result: await dashboards.tabs(actor, params.id_or_slug),
  }));
  route(app, { method: 'POST', url: '/api/v1/dashboard/', permission: ['can_write', 'Dashboard'], summary: 'Create a dashboard', tags, body: DashboardCreateSchema, status: 201 }, ({ actor, body }) => dashboards.create(actor, body));
  route(app, { method: 'PUT', url: '/api/v1/dashboard/:pk', permission: ['can_write', 'Dashboard'], summary: 'Save a dashboard (409 when last_modified_time is older than the stored copy)', tags, params: PkParams, body: DashboardUpdateSchema }, ({ actor, params, body }) =>
    dashboards.update(actor, params.pk, body),
  );
  route(app, { method: 'DELETE', url: '/api/v1/dashboard/:pk', permission: ['can_write', 'Dashboard'], summary: 'Delete a dashboard', tags, params: PkParams }, async ({ actor, params }) => {
    await dashboards.delete(actor, params.pk);
    return { message: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/dashboard/', permission: ['can_write', 'Dashboard'], summary: 'Delete dashboards (q=!(ids))', tags, query: ListParams, rison: true }, async ({ actor, query }) => {
    const n = await dashboards.bulkDelete(actor, idList(query.q, 'dashboard'));
    return { message: `Deleted ${n} dashboard${n === 1 ? '' : 's'}` };
  });
  route(app, { method: 'POST', url: '/api/v1/dashboard/:pk/copy/', permission: ['can_write', 'Dashboard'], summary: 'Copy a dashboard (Save as)', tags, params: PkParams, body: DashboardCopySchema }, ({ actor, params, body }) => dashboards.copy(actor, params.pk, body));
  route(
    app,
    {
      method: 'PUT',
      url: '/api/v1/dashboard/:pk/colors',
      permission: ['can_write', 'Dashboard'],
      summary: "Update the dashboard's colour settings (mark_updated=false leaves it unchanged)",
      tags,
      params: PkParams,
      query: z.object({ mark_updated: z.enum(['true', 'false']).optional() }),
      body: DashboardColorsSchema,
    },
    async ({ actor, params, query, body }) => {
      await dashboards.putColors(actor, params.pk, body, query.mark_updated !== 'false');
      return { result: [] };
    },
  );
  route(app, { method: 'POST', url: '/api/v1/dashboard/:pk/favorites/', permission: ['can_read', 'Dashboard'], summary: 'Mark a dashboard as favourite', tags, params: PkParams }, async ({ actor, params }) => {
    await dashboards.setFavorite(actor, params.pk, true);
    return { result: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/dashboard/:pk/favorites/', permission: ['can_read', 'Dashboard'], summary: 'Unmark a favourite dashboard', tags, params: PkParams }, async ({ actor, params }) => {
    await dashboards.setFavorite(actor, params.pk, false);
    return { result: 'OK' };
  });
  route(
    app,
    { method: 'POST', url: '/api/v1/dashboard/:id_or_slug/permalink', permission: ['can_write', 'DashboardPermalinkRestApi'], summary: 'Create a dashboard permalink (urlParams, dataMask, activeTabs, anchor)', tags, params: IdOrSlug, body: DashboardPermalinkSchema, status: 201 },
    ({ actor, params, body, req }) => dashboards.createPermalink(actor, params.id_or_slug, body, baseUrl(req as never)),
  );

  // spec 02 §3 Data mask kept for a reload: the key goes into the address as native_filters_key.
  const { filterStates } = services;
  const FilterStateBody = z.object({ value: z.string().refine((v) => { try { JSON.parse(v); return true; } catch { return false; } }, 'JSON not valid') });
  const TabQuery = z.object({ tab_id: z.coerce.number().int().optional() });
  const FilterStateParams = z.object({ pk: z.string().min(1), key: z.string().min(1) });
  route(app, { method: 'POST', url: '/api/v1/dashboard/:pk/filter_state', permission: ['can_write', 'DashboardFilterStateRestApi'], summary: "Keep a dashboard's filter state (data mask)", tags, params: z.object({ pk: z.string().min(1) }), query: TabQuery, body: FilterStateBody, status: 201 }, async ({ actor, params, query, body }) => ({
    key: await filterStates.create(actor, params.pk, body.value, query.tab_id),
  }));
  route(app, { method: 'PUT', url: '/api/v1/dashboard/:pk/filter_state/:key', permission: ['can_write', 'DashboardFilterStateRestApi'], summary: "Update a dashboard's kept filter state", tags, params: FilterStateParams, query: TabQuery, body: FilterStateBody }, async ({ actor, params, query, body }) => ({
    key: await filterStates.update(actor, params.pk, params.key, body.value, query.tab_id),
  }));
  route(app, { method: 'GET', url: '/api/v1/dashboard/:pk/filter_state/:key', permission: ['can_read', 'DashboardFilterStateRestApi'], summary: "Read a dashboard's kept filter state", tags, params: FilterStateParams }, async ({ actor, params }) => ({
    value: await filterStates.get(actor, params.pk, params.key),
  }));
  route(app, { method: 'DELETE', url: '/api/v1/dashboard/:pk/filter_state/:key', permission: ['can_write', 'DashboardFilterStateRestApi'], summary: "Delete a dashboard's kept filter state", tags, params: FilterStateParams }, async ({ actor, params }) => {
    await filterStates.delete(actor, params.pk, params.key);
    return { message: 'Deleted successfully' };
  });
}
