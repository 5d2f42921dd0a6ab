import type { ChartService } from '../chart/chart.service';
import type { DashboardService } from '../dashboard/dashboard.service';
import type { DatasetRecord } from '../dataset/dataset.repository';
import type { DatasetService } from '../dataset/dataset.service';
import type { DatabaseService } from '../database/database.service';
import type { SavedQueryService } from '../saved-query/saved-query.service';
import type { MetadataDb } from '../db/database';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import { Bundle, type BundleChart, type BundleKind } from './bundle';

/**
 * Export bundles of charts and dashboards (with everything they reference), and of the whole instance.
 * Each object goes through its service's read check, so an export holds only what the caller may read.
 */
export class AssetExportService {
  constructor(private readonly deps: { db: MetadataDb; security: SecurityService; charts: ChartService; datasets: DatasetService; dashboards: DashboardService; databases: DatabaseService; savedQueries: SavedQueryService }) {}

  private async addCharts(actor: Actor, bundle: Bundle, ids: number[]): Promise<{ chartUuids: Map<number, string>; datasetUuids: Map<number, string> }> {
    const chartUuids = new Map<number, string>();
    const datasets = new Map<number, DatasetRecord>();
    for (const id of new Set(ids)) {
      const chart: BundleChart = await this.deps.charts.record(actor, id);
      let datasetUuid: string | null = null;
      if (chart.datasource_id) {
        const dataset = datasets.get(chart.datasource_id) ?? (await this.deps.datasets.getAccessible(actor, chart.datasource_id));
        datasets.set(dataset.id, dataset);
        datasetUuid = dataset.uuid;
      }
      bundle.addChart(chart, datasetUuid);
      chartUuids.set(chart.id, chart.uuid);
    }
    for (const dataset of datasets.values()) bundle.addDataset(dataset);
    return { chartUuids, datasetUuids: new Map([...datasets.values()].map((d) => [d.id, d.uuid])) };
  }

  /** `GET /api/v1/chart/export/`: the charts with their datasets and databases. */
  async charts(actor: Actor | null, ids: number[]): Promise<Bundle> {
    this.deps.security.require(actor, 'can_export', 'Chart');
    const bundle = new Bundle('chart');
    await this.addCharts(actor, bundle, ids);
    return bundle;
  }

  /** `GET /api/v1/dashboard/export/`: the dashboards with their charts, datasets and databases. */
  async dashboards(actor: Actor | null, ids: number[], kind: BundleKind = 'dashboard'): Promise<Bundle> {
    this.deps.security.require(actor, 'can_export', 'Dashboard');
    const bundle = new Bundle(kind);
    const records = [];
    for (const id of new Set(ids)) records.push(await this.deps.dashboards.record(actor, id));
    // The dashboard's charts as linked (a layout may still name a chart deleted since; it is left out).
    const chartIds = records.flatMap((d) => d.chart_ids);
    const { chartUuids, datasetUuids } = await this.addCharts(actor, bundle, chartIds);
    // Native filters may target datasets no chart uses; those datasets come along too.
    for (const d of records) {
      const metadata = JSON.parse(d.json_metadata || '{}') as { native_filter_configuration?: Array<{ targets?: Array<{ datasetId?: number }> }> };
      for (const target of (metadata.native_filter_configuration ?? []).flatMap((f) => f.targets ?? [])) {
        if (target.datasetId === undefined || datasetUuids.has(Number(target.datasetId))) continue;
        const dataset = await this.deps.datasets.getAccessible(actor, Number(target.datasetId));
        bundle.addDataset(dataset);
        datasetUuids.set(dataset.id, dataset.uuid);
      }
      bundle.addDashboard(d, chartUuids, datasetUuids);
    }
    return bundle;
  }

  /** `GET /api/v1/database/export/`: the databases (passwords masked) with their datasets. */
  async databases(actor: Actor | null, ids: number[]): Promise<Bundle> {
    this.deps.security.require(actor, 'can_export', 'Database');
    const bundle = new Bundle('database');
    for (const id of new Set(ids)) {
      bundle.addDatabase(await this.deps.databases.getAccessible(actor, id));
      const tables = await this.deps.db.selectFrom('tables').select('id').where('database_id', '=', id).execute();
      for (const t of tables) {
        const dataset = await this.deps.datasets.getAccessible(actor, t.id).catch(() => null);
        if (dataset) bundle.addDataset(dataset);
      }
    }
    return bundle;
  }

  /** `GET /api/v1/saved_query/export/`: the caller's saved queries with their databases. */
  async savedQueries(actor: Actor | null, ids: number[], into = new Bundle('saved_query')): Promise<Bundle> {
    this.deps.security.require(actor, 'can_export', 'SavedQuery');
    for (const id of new Set(ids)) {
      const query = await this.deps.savedQueries.get(actor, id);
      if (!query.db_id) continue;
      const database = await this.deps.databases.getAccessible(actor, query.db_id);
      into.addDatabase(database);
      into.addSavedQuery(query, database);
    }
    return into;
  }

  /** `GET /api/v1/assets/export/`: every dashboard, chart and dataset, with their databases (admins). */
  async all(actor: Actor | null): Promise<Bundle> {
    this.deps.security.require(actor, 'can_export', 'ImportExportRestApi');
    const bundle = await this.dashboards(actor, (await this.deps.db.selectFrom('dashboards').select('id').execute()).map((r) => r.id), 'assets');
    await this.addCharts(actor!, bundle, (await this.deps.db.selectFrom('slices').select('id').execute()).map((r) => r.id));
    for (const { id } of await this.deps.db.selectFrom('tables').select('id').execute()) bundle.addDataset(await this.deps.datasets.getAccessible(actor!, id));
    for (const { id } of await this.deps.db.selectFrom('dbs').select('id').execute()) bundle.addDatabase(await this.deps.databases.getAccessible(actor!, id));
    await this.savedQueries(actor, (await this.deps.db.selectFrom('saved_query').select('id').execute()).map((r) => r.id), bundle);
    return bundle;
  }
}
