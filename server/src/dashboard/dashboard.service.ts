import { dashboardDigest } from '../screenshot/digest';
import type { UserService } from '../users/user.service';
import type { DashboardCopy, DashboardCreate, DashboardPermalinkState, DashboardUpdate, ListQuery, ListResult } from '@meridian/contracts';
import { certificationOf, chartIdsOf, DEFAULT_DASHBOARD_TITLE, normalizeSlug, parseJsonMetadata, parseLayout, tabsOf, withChartUuids } from '@meridian/contracts';
import { isStaleCopy, lastModifiedTimeOf, staleCopyMessage } from '@meridian/contracts/rules/last-modified';
import { isAdmin, isOwner, ownersToStore } from '@meridian/contracts/rules/permissions';
import { NO_PERMISSION_TO_EDIT_DASHBOARD } from '@meridian/contracts/messages';
import { chartListView } from '../chart/chart.service';
import type { ChartRepository, Person } from '../chart/chart.repository';
import { humanizedDelta, pythonIsoformat, utcStamp } from '@meridian/contracts/rules/dates';
import type { DatasetService } from '../dataset/dataset.service';
import { datasourceData } from '../dataset/dataset.service';
import { Conflict, Forbidden, Invalid, NotFound, Unprocessable } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { DashboardRecord, DashboardRepository, DASHBOARD_DISTINCT_COLUMNS } from './dashboard.repository';
import { patchOf } from '../common/patch';

/** spec 02 §6: the answer to a save the actor may not make. */
export const EDIT_FORBIDDEN = NO_PERMISSION_TO_EDIT_DASHBOARD;

const fullName = (p: Person | null) => (p ? `${p.first_name} ${p.last_name}`.trim() : '');
const person = (p: Person | null) => (p ? { id: p.id, first_name: p.first_name, last_name: p.last_name } : null);

/** `GET /api/v1/dashboard/{id_or_slug}` (Superset's DashboardGetResponseSchema). */
export function dashboardView(d: DashboardRecord, chartNames: string[] = []) {
  return {
    id: d.id,
    uuid: d.uuid,
    slug: d.slug,
    url: `/superset/dashboard/${d.slug ?? d.id}/`,
    dashboard_title: d.dashboard_title,
    thumbnail_url: `/api/v1/dashboard/${d.id}/thumbnail/${dashboardDigest({ id: d.id, changed_on: pythonIsoformat(d.changed_on), position_json: d.position_json, json_metadata: d.json_metadata })}/`,
    published: d.published,
    css: d.css,
    json_metadata: d.json_metadata,
    position_json: d.position_json,
    certified_by: d.certified_by,
    certification_details: d.certification_details,
    changed_by_name: fullName(d.changed_by),
    changed_by: person(d.changed_by),
    changed_on: pythonIsoformat(d.changed_on),
    changed_on_delta_humanized: humanizedDelta(d.changed_on),
    created_by: person(d.created_by),
    created_on_delta_humanized: humanizedDelta(d.created_on),
    charts: chartNames,
    owners: d.owners.map(person),
    roles: d.roles,
    tags: d.tags,
    is_managed_externally: d.is_managed_externally,
    external_url: d.external_url,
  };
}

/** A list row (Superset's DashboardRestApi.list_columns). */
export function dashboardListView(d: DashboardRecord) {
  const { charts: _c, ...view } = dashboardView(d);
  return {
    ...view,
    changed_by_name: fullName(d.changed_by),
    changed_on_utc: utcStamp(d.changed_on),
    created_on_delta_humanized: humanizedDelta(d.created_on),
    status: d.published ? 'published' : 'draft',
  };
}

/** The state a dashboard permalink restores (spec 02 §2: URL params, data mask, active tabs, anchor). */
export interface DashboardPermalinkValue {
  dashboardId: string;
  state: DashboardPermalinkState;
}

/** The related fields of `GET /api/v1/dashboard/related/{column}` (Superset's related_field_filters). */
export const DASHBOARD_RELATED_COLUMNS = ['owners', 'created_by', 'changed_by', 'roles'] as const;

/** Dashboards: CRUD with owners, roles and charts, favourites, copy, tabs, permalinks (spec 02 §3, §6, §7). */
export class DashboardService {
  constructor(
    private readonly deps: {
      dashboards: DashboardRepository;
      charts: ChartRepository;
      datasets: DatasetService;
      security: SecurityService;
      users: UserService;
      dashboardRbac: boolean;
    },
  ) {}

  /** A dashboard the actor may read, by id or slug; one it may not read is a 404, so its existence is not revealed. */
  private async getReadable(actor: Actor, idOrSlug: string | number): Promise<DashboardRecord> {
    const dashboard = await this.deps.dashboards.getByIdOrSlug(String(idOrSlug));
    if (!dashboard) throw new NotFound();
    // A guest (embedded dashboard) reads only the dashboards its token names.
    if (actor.guest) {
      if (actor.guest.dashboardIds.includes(dashboard.id)) return dashboard;
      throw new NotFound();
    }
    if (isAdmin(actor) || isOwner(actor, dashboard) || dashboard.created_by_fk === actor.userId) return dashboard;
    if (this.deps.dashboardRbac && dashboard.roles.length && dashboard.published) {
      if (dashboard.roles.some((r) => Object.keys(actor.roles ?? {}).includes(r.name))) return dashboard;
    }
    if (dashboard.published) {
      const scope = this.deps.datasets.accessScope(actor);
      for (const chart of await this.deps.charts.getMany(dashboard.chart_ids)) {
        if (chart.datasource_id && (scope.all || (await this.deps.datasets.getAccessible(actor, chart.datasource_id).then(() => true, () => false)))) return dashboard;
      }
    }
    throw new NotFound();
  }

  /**
   * The dashboard when it gives the actor its charts' data whatever the actor's own dataset access (as Superset's
   * raise_for_access reads a chart data request's dashboardId): a guest's embedded dashboard; with DASHBOARD_RBAC, a
   * dashboard with roles whose actor is an admin or owner, or holds one of them on the published dashboard. Null
   * otherwise.
   */
  async grantingData(actor: Actor, id: number): Promise<DashboardRecord | null> {
    if (actor.guest) return actor.guest.dashboardIds.includes(id) ? ((await this.deps.dashboards.getByIdOrSlug(String(id))) ?? null) : null;
    if (!this.deps.dashboardRbac) return null;
    const dashboard = await this.deps.dashboards.getByIdOrSlug(String(id));
    if (!dashboard?.roles.length) return null;
    const held = Object.keys(actor.roles ?? {});
    return isAdmin(actor) || isOwner(actor, dashboard) || (dashboard.published && dashboard.roles.some((r) => held.includes(r.name))) ? dashboard : null;
  }

  /** spec 02 §6 'Can edit dashboard: admin or owner, and can_write on Dashboard'. */
  private async getEditable(actor: Actor, idOrSlug: string | number): Promise<DashboardRecord> {
    this.deps.security.require(actor, 'can_write', 'Dashboard');
    const dashboard = await this.getReadable(actor, idOrSlug);
    if (!isAdmin(actor) && !isOwner(actor, dashboard)) throw new Forbidden(EDIT_FORBIDDEN);
    return dashboard;
  }

  /**
   * The checked input's slug, the charts its layout places (those that exist) and its position_json with each chart's
   * meta.uuid filled in, as Superset's save fills it (the editor's new charts come without it).
   */
  private async validate(actor: Actor, input: DashboardUpdate, exceptId: number | null): Promise<{ slug: string | null | undefined; charts: number[] | undefined; positionJson: string | undefined }> {
    const errors: Record<string, unknown> = {};
    if (input.json_metadata !== undefined && input.json_metadata !== null) {
      const parsed = parseJsonMetadata(input.json_metadata);
      if (!parsed.ok) throw new Invalid({ json_metadata: parsed.errors } as never);
    }
    const slug = input.slug === undefined ? undefined : normalizeSlug(input.slug);
    if (slug && (await this.deps.dashboards.slugTaken(slug, exceptId))) errors.slug = ['Must be unique'];
    if (input.owners?.length && (await this.deps.dashboards.existingIds('ab_user', input.owners)).length !== new Set(input.owners).size) errors.owners = ['Owners are invalid'];
    if (input.roles?.length && (await this.deps.dashboards.existingIds('ab_role', input.roles)).length !== new Set(input.roles).size) errors.roles = ['Some roles do not exist'];
    let charts: number[] | undefined;
    let positionJson: string | undefined;
    if (input.position_json !== undefined && input.position_json !== null) {
      const layout = parseLayout(input.position_json);
      charts = chartIdsOf(layout);
      const uuids = await this.deps.charts.uuids(charts);
      charts = charts.filter((id) => uuids.has(id));
      const filled = withChartUuids(layout, uuids);
      positionJson = Object.keys(layout).some((key) => filled[key] !== layout[key]) ? JSON.stringify(filled) : input.position_json;
    }
    if (Object.keys(errors).length) throw new Unprocessable(errors as Record<string, string[]>);
    return { slug, charts, positionJson };
  }

  async list(actor: Actor | null, query: ListQuery): Promise<ListResult<ReturnType<typeof dashboardListView>>> {
    this.deps.security.require(actor, 'can_read', 'Dashboard');
    if (actor.guest) throw new Forbidden();
    const { count, rows } = await this.deps.dashboards.list(query, { scope: this.deps.datasets.accessScope(actor), userId: actor.userId, admin: isAdmin(actor) });
    return { count, ids: rows.map((r) => r.id), result: rows.map(dashboardListView) };
  }

  async get(actor: Actor | null, idOrSlug: string | number) {
    this.deps.security.require(actor, 'can_read', 'Dashboard');
    const dashboard = await this.getReadable(actor, idOrSlug);
    const byId = new Map((await this.deps.charts.getMany(dashboard.chart_ids)).map((c) => [c.id, c]));
    const names = dashboard.chart_ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!.slice_name] : []));
    return dashboardView(dashboard, names);
  }

  /** The stored record (for the export and the screen's overwrite diff). */
  async record(actor: Actor | null, idOrSlug: string | number): Promise<DashboardRecord> {
    this.deps.security.require(actor, 'can_read', 'Dashboard');
    return this.getReadable(actor, idOrSlug);
  }

  /** `GET /{id_or_slug}/charts`: the dashboard's charts the actor may read, with their form data. */
  async charts(actor: Actor | null, idOrSlug: string | number) {
    this.deps.security.require(actor, 'can_read', 'Dashboard');
    const dashboard = await this.getReadable(actor, idOrSlug);
    // A holder of the dashboard's roles sees all its charts (DASHBOARD_RBAC), as their data is granted to it.
    const scope = (!actor.guest && (await this.grantingData(actor, dashboard.id))) ? { all: true } : this.deps.datasets.accessScope(actor);
    const out = [];
    // One query for every chart (a dashboard may hold dozens), and one access check per dataset.
    const byId = new Map((await this.deps.charts.getMany(dashboard.chart_ids)).map((c) => [c.id, c]));
    const readable = new Map<number, Promise<boolean>>();
    const canRead = (datasetId: number) => {
      if (!readable.has(datasetId)) readable.set(datasetId, this.deps.datasets.getAccessible(actor, datasetId).then(() => true, () => false));
      return readable.get(datasetId)!;
    };
    for (const id of dashboard.chart_ids) {
      const chart = byId.get(id);
      if (!chart) continue;
      if (!scope.all && chart.datasource_id && !(await canRead(chart.datasource_id))) continue;
      const view = chartListView(chart);
      out.push({ ...view, changed_on: pythonIsoformat(chart.changed_on), form_data: { ...view.form_data, slice_id: chart.id, viz_type: chart.viz_type, datasource: `${chart.datasource_id}__table` } });
    }
    return out;
  }

  /** `GET /{id_or_slug}/datasets`: the datasets of its charts, as Explore reads them. */
  async datasets(actor: Actor | null, idOrSlug: string | number) {
    this.deps.security.require(actor, 'can_read', 'Dashboard');
    const dashboard = await this.getReadable(actor, idOrSlug);
    // One query for every chart, as `charts` reads them (one read per chart cost ~3 ms each: 160 ms for 50).
    const byId = new Map((await this.deps.charts.getMany(dashboard.chart_ids)).map((c) => [c.id, c]));
    const ids = new Set<number>();
    for (const id of dashboard.chart_ids) {
      const datasetId = byId.get(id)?.datasource_id;
      if (datasetId) ids.add(datasetId);
    }
    // A holder of the dashboard's roles reads its datasets as it reads its charts' data (DASHBOARD_RBAC).
    const viaRoles = !!(!actor.guest && (await this.grantingData(actor, dashboard.id)));
    const out = [];
    for (const id of ids) {
      const record = await this.deps.datasets.getAccessible(actor, id).catch(() => (viaRoles ? this.deps.datasets.getGranted(id) : null));
      if (record) {
        out.push(datasourceData(record));
      }
    }
    return out;
  }

  async tabs(actor: Actor | null, idOrSlug: string | number) {
    this.deps.security.require(actor, 'can_read', 'Dashboard');
    return tabsOf(parseLayout((await this.getReadable(actor, idOrSlug)).position_json));
  }

  async create(actor: Actor | null, input: DashboardCreate) {
    this.deps.security.require(actor, 'can_write', 'Dashboard');
    const { slug, charts, positionJson } = await this.validate(actor, input, null);
    const { owners, roles, certified_by, certification_details, dashboard_title, published, is_managed_externally, ...fields } = input;
    const id = await this.deps.dashboards.create(
      {
        ...fields,
        ...(positionJson !== undefined ? { position_json: positionJson } : {}),
        slug: slug ?? null,
        dashboard_title: dashboard_title?.trim() ? dashboard_title : DEFAULT_DASHBOARD_TITLE,
        published: published ?? false,
        is_managed_externally: is_managed_externally ?? false,
        ...certificationOf(certified_by, certification_details),
        created_by_fk: actor.userId,
        changed_by_fk: actor.userId,
      },
      { owners: owners?.length ? owners : [actor.userId], roles: this.deps.dashboardRbac ? (roles ?? []) : [], charts: charts ?? [] },
    );
    const stored = (await this.deps.dashboards.get(id))!;
    return { id, result: { ...input, dashboard_title: stored.dashboard_title, slug: stored.slug }, last_modified_time: lastModifiedTimeOf(stored.changed_on) };
  }

  /**
   * `PUT /{id}`. A save that names the `last_modified_time` of the copy it edited is refused (409) when
   * the stored copy is newer, checked before any work and again inside the write's transaction; a PUT
   * without it (a script) is not checked. A json_metadata-only PUT answers only json_metadata.
   */
  async update(actor: Actor | null, id: number, input: DashboardUpdate) {
    this.deps.security.require(actor, 'can_write', 'Dashboard');
    const stored = await this.getEditable(actor, id);
    const refuseStale = (copy: { changed_on: Date | string }) => {
      if (isStaleCopy(input.last_modified_time, copy.changed_on)) throw new Conflict(staleCopyMessage('dashboard'));
    };
    refuseStale(stored);
    const { slug, charts, positionJson } = await this.validate(actor, input, id);
    const { owners, roles, tags, last_modified_time: _t, certified_by, certification_details, slug: _slug, ...fields } = input;
    if (tags) await this.deps.dashboards.setTags(id, tags, actor.userId);
    const patch = patchOf(fields);
    if (slug !== undefined) patch.slug = slug;
    if (positionJson !== undefined) patch.position_json = positionJson;
    if (patch.dashboard_title !== undefined && !String(patch.dashboard_title ?? '').trim()) patch.dashboard_title = DEFAULT_DASHBOARD_TITLE;
    if (certified_by !== undefined || certification_details !== undefined) {
      Object.assign(patch, certificationOf(certified_by === undefined ? stored.certified_by : certified_by, certification_details === undefined ? stored.certification_details : certification_details));
    }
    await this.deps.dashboards.update(
      id,
      { ...patch, changed_by_fk: actor.userId },
      { owners: ownersToStore(actor, owners), roles: this.deps.dashboardRbac ? roles : undefined, charts },
      refuseStale,
    );
    const saved = (await this.deps.dashboards.get(id))!;
    const last_modified_time = lastModifiedTimeOf(saved.changed_on);
    const keys = Object.keys(input).filter((k) => k !== 'last_modified_time');
    if (keys.length === 1 && keys[0] === 'json_metadata') return { id, result: { json_metadata: saved.json_metadata }, last_modified_time };
    const { last_modified_time: _l, ...echo } = input;
    return { id, result: { ...echo, slug: saved.slug, dashboard_title: saved.dashboard_title, certified_by: saved.certified_by, certification_details: saved.certification_details }, last_modified_time };
  }

  /**
   * `PUT /api/v1/dashboard/{pk}/colors`: the dashboard's colour settings in json_metadata (its scheme, custom
   * label colours, and the label→colour map its charts were drawn with, kept so they draw alike next time).
   * With `markUpdated` false the dashboard does not count as changed.
   */
  async putColors(actor: Actor | null, id: number, colors: Record<string, unknown>, markUpdated: boolean): Promise<void> {
    const stored = await this.getEditable(actor!, id);
    const current = parseJsonMetadata(stored.json_metadata);
    const merged = { ...(current.ok ? current.value : {}), ...Object.fromEntries(Object.entries(colors).filter(([, v]) => v !== undefined)) };
    const checked = parseJsonMetadata(JSON.stringify(merged));
    if (!checked.ok) throw new Invalid(checked.errors as never);
    await this.deps.dashboards.setJsonMetadata(id, JSON.stringify(merged), markUpdated);
  }

  async delete(actor: Actor | null, id: number): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'Dashboard');
    await this.getEditable(actor, id);
    await this.deps.dashboards.delete([id]);
  }

  /** Deletes all or none: every dashboard is checked before any is deleted. */
  async bulkDelete(actor: Actor | null, ids: number[]): Promise<number> {
    this.deps.security.require(actor, 'can_write', 'Dashboard');
    for (const id of ids) await this.getEditable(actor, id);
    await this.deps.dashboards.delete(ids);
    return ids.length;
  }

  /**
   * `POST /{id}/copy/` ('Save as'): a new dashboard owned by the actor with the given title, css and
   * metadata, the same layout; with duplicate_slices its charts are copied too and the layout points at the copies.
   */
  async copy(actor: Actor | null, id: number, input: DashboardCopy) {
    this.deps.security.require(actor, 'can_write', 'Dashboard');
    const source = await this.getReadable(actor, id);
    const parsed = parseJsonMetadata(input.json_metadata);
    if (!parsed.ok) throw new Invalid({ json_metadata: parsed.errors } as never);
    const metadata = parsed.value;
    let positionText = source.position_json;
    let charts = source.chart_ids;
    if (input.duplicate_slices) {
      const mapping = new Map<number, number>();
      for (const chartId of source.chart_ids) {
        const chart = await this.deps.charts.get(chartId);
        if (!chart) continue;
        const { owners: _o, dashboards: _d, tags: _tg, created_by: _c, changed_by: _m, datasource_name: _n, datasource_schema: _s, database_id: _db, database_name: _dn, id: _id, uuid: _u, created_on: _co, changed_on: _ch, ...fields } = chart;
        const copyId = await this.deps.charts.create({ ...fields, created_by_fk: actor.userId, changed_by_fk: actor.userId }, [actor.userId], []);
        mapping.set(chartId, copyId);
      }
      const layout = parseLayout(positionText) as Record<string, any>;
      for (const component of Object.values(layout)) {
        if (component && typeof component === 'object' && component.type === 'CHART' && mapping.has(Number(component.meta?.chartId))) component.meta.chartId = mapping.get(Number(component.meta.chartId));
      }
      charts = [...mapping.values()];
      // The copies' own uuids in the chart meta, not the originals'.
      positionText = Object.keys(layout).length ? JSON.stringify(withChartUuids(layout, await this.deps.charts.uuids(charts))) : positionText;
    }
    const newId = await this.deps.dashboards.create(
      {
        dashboard_title: input.dashboard_title?.trim() ? input.dashboard_title : DEFAULT_DASHBOARD_TITLE,
        css: input.css ?? source.css,
        json_metadata: JSON.stringify(metadata),
        position_json: positionText,
        published: false,
        slug: null,
        created_by_fk: actor.userId,
        changed_by_fk: actor.userId,
      },
      { owners: [actor.userId], roles: [], charts },
    );
    const saved = (await this.deps.dashboards.get(newId))!;
    return { result: { id: newId, last_modified_time: lastModifiedTimeOf(saved.changed_on) } };
  }

  async favoriteStatus(actor: Actor | null, ids: number[]) {
    this.deps.security.require(actor, 'can_read', 'Dashboard');
    const favorites = await this.deps.dashboards.favoriteIds(actor.userId, ids);
    return ids.map((id) => ({ id, value: favorites.includes(id) }));
  }

  async setFavorite(actor: Actor | null, id: number, on: boolean): Promise<void> {
    this.deps.security.require(actor, 'can_read', 'Dashboard');
    const dashboard = await this.getReadable(actor, id);
    await this.deps.dashboards.setFavorite(actor.userId, dashboard.id, on);
  }

  /** `related/{column}`: the people (owners, created_by, changed_by) or roles a dashboard can be filtered by or given. */
  async related(actor: Actor | null, column: (typeof DASHBOARD_RELATED_COLUMNS)[number], opts: { filter: string; page: number; pageSize: number }) {
    this.deps.security.require(actor, 'can_read', 'Dashboard');
    if (column === 'roles') {
      const { count, rows } = await this.deps.dashboards.roleChoices(opts.filter, opts.page, opts.pageSize);
      return { count, result: rows.map((r) => ({ value: r.id, text: r.name })) };
    }
    return this.deps.users.related(actor, 'Dashboard', opts);
  }

  async distinct(actor: Actor | null, column: keyof typeof DASHBOARD_DISTINCT_COLUMNS, opts: { filter: string; page: number; pageSize: number }) {
    this.deps.security.require(actor, 'can_read', 'Dashboard');
    const { count, values } = await this.deps.dashboards.distinct(column, { ...opts, scope: this.deps.datasets.accessScope(actor), userId: actor.userId, admin: isAdmin(actor) });
    return { count, result: values.map((v) => ({ text: v, value: v })) };
  }

  /** `POST /{id}/permalink`: the key and address of the dashboard in this state. */
  async createPermalink(actor: Actor | null, idOrSlug: string | number, state: DashboardPermalinkState, baseUrl: string) {
    this.deps.security.require(actor, 'can_read', 'Dashboard');
    const dashboard = await this.getReadable(actor, idOrSlug);
    const value: DashboardPermalinkValue = { dashboardId: String(dashboard.id), state };
    const key = await this.deps.dashboards.createPermalink(JSON.stringify(value), actor.userId);
    return { key, url: `${baseUrl}/superset/dashboard/p/${key}/` };
  }

  /** `GET /api/v1/dashboard/permalink/{key}`: the stored state, for a reader of its dashboard. */
  async permalink(actor: Actor | null, key: string): Promise<DashboardPermalinkValue> {
    this.deps.security.require(actor, 'can_read', 'Dashboard');
    const text = await this.deps.dashboards.permalink(key);
    if (!text) throw new NotFound();
    const value = JSON.parse(text) as DashboardPermalinkValue;
    await this.getReadable(actor, value.dashboardId);
    return value;
  }
}
