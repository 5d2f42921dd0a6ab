import { chartDigest } from '../screenshot/digest';
import type { UserService } from '../users/user.service';
import { ListQuerySchema, type ChartCreate, type ChartUpdate, type ListQuery, type ListResult } from '@meridian/contracts';
import { isAdmin, isOwner, ownersToStore } from '@meridian/contracts/rules/permissions';
import { Forbidden, NotFound, Unprocessable } from '../errors/domain-errors';
import { humanizedDelta, pythonIsoformat, utcStamp } from '@meridian/contracts/rules/dates';
import type { DatasetService } from '../dataset/dataset.service';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import { DISTINCT_COLUMNS, type ChartRecord, type ChartRepository } from './chart.repository';
import { patchOf } from '../common/patch';
import { markdown } from '../common/markdown';

/** Columns of `related/{column}`, as Superset's ChartRestApi.related_field_filters. */
export const CHART_RELATED_COLUMNS = ['owners', 'created_by', 'changed_by', 'dashboards'] as const;

const fullName = (p: { first_name: string; last_name: string } | null) => (p ? `${p.first_name} ${p.last_name}`.trim() : '');

function parseParams(params: string | null): Record<string, unknown> {
  if (!params) return {};
  try {
    const value = JSON.parse(params);
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

/** `GET /api/v1/chart/{pk}` (Superset's ChartRestApi.get). */
export function chartView(c: ChartRecord) {
  return {
    id: c.id,
    uuid: c.uuid,
    slice_name: c.slice_name,
    viz_type: c.viz_type,
    params: c.params,
    query_context: c.query_context,
    description: c.description,
    cache_timeout: c.cache_timeout,
    certified_by: c.certified_by,
    certification_details: c.certification_details,
    is_managed_externally: c.is_managed_externally,
    external_url: c.external_url,
    datasource_id: c.datasource_id,
    datasource_type: c.datasource_type,
    owners: c.owners,
    dashboards: c.dashboards.map((d) => ({ id: d.id, dashboard_title: d.dashboard_title, json_metadata: d.json_metadata })),
    changed_on_delta_humanized: humanizedDelta(c.changed_on),
    thumbnail_url: `/api/v1/chart/${c.id}/thumbnail/${chartDigest(c)}/`,
    url: `/explore/?slice_id=${c.id}`,
    tags: c.tags,
  };
}

/**
 * A chart as Explore's `slice` (Superset's `Slice.data`): the chart view with its form data, urls, owners as ids and
 * when it last changed (`modified` is that time in Superset's no-wrap span). `description_markeddown` is the
 * description rendered as Superset's `Slice.description_markeddown` renders it (markdown, cleaned to safe HTML).
 */
export function sliceData(c: ChartRecord) {
  const saved = parseParams(c.params);
  const changedOnHumanized = humanizedDelta(c.changed_on);
  return {
    ...chartView(c),
    slice_id: c.id,
    slice_url: `/explore/?slice_id=${c.id}`,
    edit_url: `/chart/edit/${c.id}`,
    form_data: { ...saved, slice_id: c.id },
    datasource: `${c.datasource_id}__table`,
    owners: c.owners.map((o) => o.id),
    description_markeddown: markdown(c.description),
    changed_on: pythonIsoformat(c.changed_on),
    changed_on_humanized: changedOnHumanized,
    modified: `<span class="no-wrap">${changedOnHumanized ?? ''}</span>`,
  };
}

/** A PUT of only the query context, marked as generated (Superset's `is_query_context_update`). */
const isQueryContextUpdate = (input: ChartUpdate) => {
  const keys = Object.keys(input).filter((k) => input[k as keyof ChartUpdate] !== undefined).sort();
  return keys.join() === 'query_context,query_context_generation' && !!input.query_context_generation;
};

/** A list row (Superset's ChartRestApi.get_list columns). */
export function chartListView(c: ChartRecord) {
  return {
    ...chartView(c),
    slice_url: `/explore/?slice_id=${c.id}`,
    edit_url: `/chart/edit/${c.id}`,
    datasource_url: c.datasource_id ? `/explore/?datasource_type=table&datasource_id=${c.datasource_id}` : null,
    datasource_name_text: c.datasource_name ? [c.datasource_schema, c.datasource_name].filter(Boolean).join('.') : null,
    table: c.datasource_name ? { table_name: c.datasource_name, schema: c.datasource_schema, default_endpoint: null } : null,
    form_data: parseParams(c.params),
    description_markeddown: markdown(c.description),
    created_by: c.created_by,
    created_by_name: fullName(c.created_by),
    changed_by: c.changed_by,
    changed_by_name: fullName(c.changed_by),
    changed_on_utc: utcStamp(c.changed_on),
    changed_on_dttm: c.changed_on ? new Date(c.changed_on).getTime() : null,
    created_on_delta_humanized: humanizedDelta(c.created_on),
    last_saved_at: pythonIsoformat(c.last_saved_at),
    last_saved_by: null,
  };
}

/** Saved charts: CRUD with owners and dashboards, favourites, list search. */
export class ChartService {
  constructor(private readonly deps: { charts: ChartRepository; datasets: DatasetService; security: SecurityService; users: UserService }) {}

  private async getReadable(actor: Actor, id: number): Promise<ChartRecord> {
    const chart = await this.deps.charts.get(id);
    if (!chart) throw new NotFound();
    // A guest (embedded dashboard) reads only the charts of its dashboards.
    if (actor.guest && !actor.guest.chartIds.includes(chart.id)) throw new NotFound();
    if (!isAdmin(actor) && !isOwner(actor, chart) && chart.datasource_id) {
      await this.deps.datasets.getAccessible(actor, chart.datasource_id).catch(() => {
        throw new NotFound();
      });
    }
    return chart;
  }

  /**
   * can_write on Chart and owner (or admin), else 403 'Changing this chart is forbidden'; a chart
   * the actor may not read is a 404, as Superset's filtered lookup, so a write never reveals it.
   */
  private async getEditable(actor: Actor, id: number): Promise<ChartRecord> {
    this.deps.security.require(actor, 'can_write', 'Chart');
    const chart = await this.getReadable(actor, id);
    if (!isAdmin(actor) && !isOwner(actor, chart)) throw new Forbidden('Changing this chart is forbidden');
    return chart;
  }

  async list(actor: Actor | null, query: ListQuery): Promise<ListResult<ReturnType<typeof chartListView>>> {
    this.deps.security.require(actor, 'can_read', 'Chart');
    if (actor.guest) throw new Forbidden();
    const { count, rows } = await this.deps.charts.list(query, { scope: this.deps.datasets.accessScope(actor), userId: actor.userId });
    return { count, ids: rows.map((r) => r.id), result: rows.map(chartListView) };
  }

  async get(actor: Actor | null, id: number) {
    this.deps.security.require(actor, 'can_read', 'Chart');
    return chartView(await this.getReadable(actor, id));
  }

  async record(actor: Actor | null, id: number): Promise<ChartRecord> {
    this.deps.security.require(actor, 'can_read', 'Chart');
    return this.getReadable(actor, id);
  }

  private async validate(actor: Actor, input: ChartUpdate): Promise<void> {
    const errors: Record<string, string[]> = {};
    if (input.datasource_id !== undefined) {
      if (input.datasource_type && input.datasource_type !== 'table' && input.datasource_type !== 'dataset') errors.datasource_type = ['Datasource type is invalid'];
      else await this.deps.datasets.getAccessible(actor, input.datasource_id).catch(() => (errors.datasource_id = ['Datasource does not exist']));
    }
    for (const field of ['params', 'query_context'] as const) {
      const text = input[field];
      if (text) {
        try {
          JSON.parse(text);
        } catch {
          errors[field] = ['Field cannot be decoded by JSON.'];
        }
      }
    }
    if (input.owners?.length) {
      const existing = await this.deps.charts.existingUserIds(input.owners);
      if (existing.length !== new Set(input.owners).size) errors.owners = ['Owners are invalid'];
    }
    if (input.dashboards?.length) {
      const found = await this.deps.charts.dashboards(input.dashboards);
      if (found.length !== new Set(input.dashboards).size) errors.dashboards = ['Dashboards do not exist'];
      else if (!isAdmin(actor) && found.some((d) => !d.owners.includes(actor.userId))) errors.dashboards = ['Dashboards do not exist'];
    }
    if (Object.keys(errors).length) throw new Unprocessable(errors);
  }

  async create(actor: Actor | null, input: ChartCreate) {
    this.deps.security.require(actor, 'can_write', 'Chart');
    await this.validate(actor, input);
    const { owners, dashboards, datasource_name: _n, query_context_generation: _g, is_managed_externally, ...fields } = input;
    const id = await this.deps.charts.create(
      { ...fields, is_managed_externally: is_managed_externally ?? false, datasource_type: 'table', created_by_fk: actor.userId, changed_by_fk: actor.userId, last_saved_at: new Date(), last_saved_by_fk: actor.userId },
      owners?.length ? owners : [actor.userId],
      dashboards ?? [],
    );
    return chartView((await this.deps.charts.get(id))!);
  }

  async update(actor: Actor | null, id: number, input: ChartUpdate) {
    this.deps.security.require(actor, 'can_write', 'Chart');
    // Explore writes the query context a saved chart lacks for whoever opens it (Superset's is_query_context_update):
    // no ownership needed, and the chart is not counted as saved or modified by them.
    if (isQueryContextUpdate(input)) {
      await this.getReadable(actor, id);
      await this.validate(actor, input);
      await this.deps.charts.update(id, { query_context: input.query_context }, {});
      return chartView((await this.deps.charts.get(id))!);
    }
    await this.getEditable(actor, id);
    await this.validate(actor, input);
    const { owners, dashboards, tags, datasource_name: _n, query_context_generation: generated, ...fields } = input;
    if (tags) await this.deps.charts.setTags(id, tags, actor.userId);
    const patch = patchOf(fields);
    if (patch.datasource_type) patch.datasource_type = 'table';
    const saved = generated ? {} : { last_saved_at: new Date(), last_saved_by_fk: actor.userId };
    await this.deps.charts.update(id, { ...patch, changed_by_fk: actor.userId, ...saved }, { owners: ownersToStore(actor, owners), dashboards });
    return chartView((await this.deps.charts.get(id))!);
  }

  async delete(actor: Actor | null, id: number): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'Chart');
    await this.getEditable(actor, id);
    await this.deps.charts.delete([id]);
  }

  async bulkDelete(actor: Actor | null, ids: number[]): Promise<number> {
    this.deps.security.require(actor, 'can_write', 'Chart');
    for (const id of ids) await this.getEditable(actor, id);
    await this.deps.charts.delete(ids);
    return ids.length;
  }

  async favoriteStatus(actor: Actor | null, ids: number[]) {
    this.deps.security.require(actor, 'can_read', 'Chart');
    const favorites = await this.deps.charts.favoriteIds(actor.userId, ids);
    return ids.map((id) => ({ id, value: favorites.includes(id) }));
  }

  async setFavorite(actor: Actor | null, id: number, on: boolean): Promise<void> {
    this.deps.security.require(actor, 'can_read', 'Chart');
    await this.getReadable(actor, id);
    if (on) await this.deps.charts.addFavorite(actor.userId, id);
    else await this.deps.charts.removeFavorite(actor.userId, id);
  }

  /** `related/{column}`: users for owners, created_by and changed_by; dashboards (a non-admin's own) for dashboards. */
  async related(actor: Actor | null, column: (typeof CHART_RELATED_COLUMNS)[number], opts: { filter: string; page: number; pageSize: number }) {
    this.deps.security.require(actor, 'can_read', 'Chart');
    if (column === 'dashboards') {
      const { count, rows } = await this.deps.charts.dashboardChoices(opts.filter, opts.page, opts.pageSize, isAdmin(actor) ? null : actor.userId);
      return { count, result: rows.map((d) => ({ value: d.id, text: d.dashboard_title ?? '' })) };
    }
    return this.deps.users.related(actor, 'Chart', opts);
  }

  /** `distinct/{column}` among the charts the caller may read. */
  async distinct(actor: Actor | null, column: keyof typeof DISTINCT_COLUMNS, opts: { filter: string; page: number; pageSize: number }) {
    this.deps.security.require(actor, 'can_read', 'Chart');
    const { count, values } = await this.deps.charts.distinct(column, { ...opts, scope: this.deps.datasets.accessScope(actor), userId: actor.userId });
    return { count, result: values.map((v) => ({ text: v, value: v })) };
  }

  /** The saved charts a warm-up covers: one chart, or every readable chart on a dataset. */
  async forWarmUp(actor: Actor | null, ref: { chartId: number } | { datasetId: number }): Promise<ChartRecord[]> {
    this.deps.security.require(actor, 'can_read', 'Chart');
    if ('chartId' in ref) return [await this.getReadable(actor, ref.chartId)];
    const { rows } = await this.deps.charts.list(ListQuerySchema.parse({ filters: [{ col: 'datasource_id', opr: 'eq', value: ref.datasetId }], page_size: 1000 }), { scope: this.deps.datasets.accessScope(actor), userId: actor.userId });
    return rows;
  }

}
