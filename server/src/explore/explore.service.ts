import { randomBytes } from 'node:crypto';
import type { ExploreBootstrapQuery, ExploreFormDataInput, ExplorePermalinkInput } from '@meridian/contracts';
import { explorePermissions, isAdmin } from '@meridian/contracts/rules/permissions';
import type { DatasourceKey } from '@meridian/contracts/rules/validators';
import { DEFAULT_TIME_RANGE } from '@meridian/contracts/rules/constants';
import type { CacheStore } from '../cache/cache-store';
import { sliceData } from '../chart/chart.service';
import type { ChartService } from '../chart/chart.service';
import { Forbidden, NotFound, StructuredError } from '../errors/domain-errors';
import { datasourceData } from '../dataset/dataset.service';
import type { DatasetService } from '../dataset/dataset.service';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { ExploreRepository } from './explore.repository';

/** Explore form data kept in the cache for a week, as Superset's EXPLORE_FORM_DATA_CACHE_CONFIG. */
const FORM_DATA_TTL_SECONDS = 7 * 24 * 3600;

interface StoredFormData {
  owner: number;
  datasource_id: number;
  datasource_type: string;
  chart_id: number | null;
  form_data: string;
}

/** Explore: the bootstrap of the Explore screen, datasource metadata, permalinks and the form data cache. */
export class ExploreService {
  constructor(
    private readonly deps: { security: SecurityService; datasets: DatasetService; charts: ChartService; explore: ExploreRepository; cache: CacheStore },
  ) {}

  /** The datasource as Explore reads it (`GET /superset/fetch_datasource_metadata`, `dataset` of the bootstrap). */
  async datasourceMetadata(actor: Actor | null, key: DatasourceKey) {
    this.deps.security.require(actor, 'can_read', 'Dataset');
    if (key.type !== 'table' && key.type !== 'dataset') throw new StructuredError(400, [{ message: `Datasource type ${key.type} is not supported`, error_type: 'UNKNOWN_DATASOURCE_TYPE_ERROR', level: 'error', extra: {} }]);
    return datasourceData(await this.deps.datasets.getAccessible(actor, key.id));
  }

  /** `GET /api/v1/explore/`: form data, dataset and slice for the Explore screen. */
  async bootstrap(actor: Actor | null, params: ExploreBootstrapQuery) {
    this.deps.security.require(actor, 'can_read', 'Explore');
    let formData: Record<string, any> = {};
    let slice = null;
    let message: string | null = null;
    if (params.permalink_key) {
      const state = await this.permalink(actor, params.permalink_key);
      formData = state.state.formData;
      // The address's parameters the link was made with become the form data's url_params (Superset's GetExploreCommand).
      if (state.state.urlParams?.length) formData.url_params = Object.fromEntries(state.state.urlParams);
    } else if (params.form_data_key) {
      const stored = await this.getFormData(actor, params.form_data_key).catch(() => null);
      if (stored) formData = JSON.parse(stored);
      else message = 'Form data not found in cache, reverting to chart metadata.';
    }
    const sliceId = params.slice_id ?? (formData.slice_id ? Number(formData.slice_id) : undefined);
    if (sliceId) {
      const record = await this.deps.charts.record(actor, sliceId);
      slice = sliceData(record);
      if (!Object.keys(formData).length) formData = record.params ? JSON.parse(record.params) : {};
      formData.slice_id = slice.id;
      formData.datasource ??= `${record.datasource_id}__table`;
    }
    let datasourceKey: DatasourceKey | null = null;
    if (params.datasource_id) datasourceKey = { id: params.datasource_id, type: (params.datasource_type ?? 'table') as DatasourceKey['type'] };
    else if (typeof formData.datasource === 'string' && /^\d+__/.test(formData.datasource)) {
      const [id, type] = formData.datasource.split('__');
      datasourceKey = { id: Number(id), type: type as DatasourceKey['type'] };
    }
    let dataset = null;
    if (datasourceKey) {
      try {
        dataset = await this.datasourceMetadata(actor, datasourceKey);
        formData.datasource = `${dataset.id}__table`;
      } catch (error) {
        if (!(error instanceof NotFound)) throw error;
        message = 'Dataset does not exist';
      }
    }
    formData.viz_type ??= 'table';
    formData.time_range ??= DEFAULT_TIME_RANGE;
    const permissions = explorePermissions(actor, slice ? { owners: slice.owners } : null);
    return { result: { form_data: formData, dataset, slice, message, ...permissions, can_overwrite: !!slice && (permissions.can_overwrite || isAdmin(actor)) } };
  }

  /** `POST /api/v1/explore/permalink`: stores form data and URL params; returns the key and URL. */
  async createPermalink(actor: Actor | null, input: ExplorePermalinkInput, baseUrl: string): Promise<{ key: string; url: string }> {
    this.deps.security.require(actor, 'can_write', 'ExplorePermalinkRestApi');
    const datasource = String(input.formData.datasource ?? '');
    const match = /^(\d+)__(\w+)$/.exec(datasource);
    if (match) await this.deps.datasets.getAccessible(actor, Number(match[1]));
    const chartId = input.formData.slice_id ? Number(input.formData.slice_id) : null;
    const value = JSON.stringify({
      chartId,
      datasourceId: match ? Number(match[1]) : null,
      datasourceType: match ? match[2] : null,
      datasource: datasource || null,
      state: { formData: input.formData, urlParams: input.urlParams ?? [] },
    });
    const key = await this.deps.explore.createPermalink(value, actor.userId);
    return { key, url: `${baseUrl}/superset/explore/p/${key}/` };
  }

  async permalink(actor: Actor | null, key: string): Promise<{ chartId: number | null; datasourceId: number | null; datasourceType: string | null; datasource: string | null; state: { formData: Record<string, any>; urlParams: Array<[string, string]> } }> {
    this.deps.security.require(actor, 'can_read', 'ExplorePermalinkRestApi');
    const value = await this.deps.explore.permalink(key);
    if (!value) throw new NotFound();
    const parsed = JSON.parse(value);
    if (parsed.datasourceId) await this.deps.datasets.getAccessible(actor, parsed.datasourceId);
    return parsed;
  }

  /** `POST /api/v1/explore/form_data`: caches unsaved form data under a new key. */
  async createFormData(actor: Actor | null, input: ExploreFormDataInput): Promise<string> {
    this.deps.security.require(actor, 'can_write', 'ExploreFormDataRestApi');
    await this.deps.datasets.getAccessible(actor, input.datasource_id);
    const key = randomBytes(12).toString('base64url');
    await this.store(key, { owner: actor.userId, datasource_id: input.datasource_id, datasource_type: input.datasource_type, chart_id: input.chart_id ?? null, form_data: input.form_data });
    return key;
  }

  async updateFormData(actor: Actor | null, key: string, input: ExploreFormDataInput): Promise<string> {
    this.deps.security.require(actor, 'can_write', 'ExploreFormDataRestApi');
    const current = await this.load(key);
    if (!current) throw new NotFound();
    if (current.owner !== actor.userId) throw new Forbidden();
    await this.deps.datasets.getAccessible(actor, input.datasource_id);
    await this.store(key, { ...current, datasource_id: input.datasource_id, datasource_type: input.datasource_type, chart_id: input.chart_id ?? null, form_data: input.form_data });
    return key;
  }

  async getFormData(actor: Actor | null, key: string): Promise<string> {
    this.deps.security.require(actor, 'can_read', 'ExploreFormDataRestApi');
    const current = await this.load(key);
    if (!current) throw new NotFound();
    await this.deps.datasets.getAccessible(actor, current.datasource_id);
    return current.form_data;
  }

  async deleteFormData(actor: Actor | null, key: string): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'ExploreFormDataRestApi');
    const current = await this.load(key);
    if (!current) throw new NotFound();
    if (current.owner !== actor.userId) throw new Forbidden();
    await this.deps.cache.delete(`explore-form-data:${key}`);
  }

  private async load(key: string): Promise<StoredFormData | null> {
    const text = await this.deps.cache.get(`explore-form-data:${key}`);
    return text ? (JSON.parse(text) as StoredFormData) : null;
  }

  private store(key: string, value: StoredFormData): Promise<void> {
    return this.deps.cache.set(`explore-form-data:${key}`, JSON.stringify(value), FORM_DATA_TTL_SECONDS);
  }
}
