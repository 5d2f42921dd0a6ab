import type { Config } from './config';
import type { MetadataDb } from './db/database';
import type { Logger } from './logger';
import { SecurityRepository } from './security/security.repository';
import { SecurityService } from './security/security.service';
import { TokenSigner } from './security/tokens';
import { UserRepository } from './users/user.repository';
import { UserService } from './users/user.service';
import { HomeRepository } from './home/home.repository';
import { HomeService } from './home/home.service';
import { DatabaseRepository } from './database/database.repository';
import { DatabaseService } from './database/database.service';
import { PasswordCrypto } from './database/password-crypto';
import { AssetExportService } from './assets/export.service';
import { AssetImportService } from './assets/import.service';
import { CssTemplateService } from './css-template/css-template.service';
import { RlsService } from './rls/rls.service';
import { EmbeddedService } from './embedded/embedded.service';
import { QueryRuntime } from './results/query-runtime';
import { QueryRepository } from './query/query.repository';
import { QueryService } from './query/query.service';
import { SqlLabService, type SqlLabJob } from './sqllab/sqllab.service';
import { SqlLabExportService } from './sqllab/sqllab-export.service';
import { SavedQueryRepository } from './saved-query/saved-query.repository';
import { SavedQueryService } from './saved-query/saved-query.service';
import { KeyValueRepository } from './key-value/key-value.repository';
import { KeyValueService } from './key-value/key-value.service';
import { TabStateRepository } from './tab-state/tab-state.repository';
import { TabStateService } from './tab-state/tab-state.service';
import { DatasetRepository } from './dataset/dataset.repository';
import { DatasetService } from './dataset/dataset.service';
import { PermalinkRepository } from './key-value/permalink.repository';
import { FilterStateService } from './dashboard/filter-state.service';
import { createCacheStore, type CacheStore } from './cache/cache-store';
import { AsyncEventService, MemoryEventStream, RedisEventStream } from './async-event/async-event.service';
import { ChartDataService, type ChartDataJob } from './chart-data/chart-data.service';
import { ChartRepository } from './chart/chart.repository';
import { ChartService } from './chart/chart.service';
import { ExploreRepository } from './explore/explore.repository';
import { ExploreService } from './explore/explore.service';
import { AnnotationLayerRepository } from './annotation-layer/annotation-layer.repository';
import { AnnotationLayerService } from './annotation-layer/annotation-layer.service';
import { AnnotationData } from './chart-data/annotation-data';
import { DashboardRepository } from './dashboard/dashboard.repository';
import { DashboardService } from './dashboard/dashboard.service';
import { LogRepository } from './log/log.repository';
import { RoleRepository } from './roles/role.repository';
import { UploadService } from './upload/upload.service';
import { TagService } from './tag/tag.service';
import { ScreenshotRenderer } from './screenshot/renderer';
import { ScreenshotService } from './screenshot/screenshot.service';
import { RoleService } from './roles/role.service';
import { LogService } from './log/log.service';
import { ReportService } from './report/report.service';
import { ReportExecutor } from './report/report-executor';
import { ReportScheduler, type ReportJob } from './report/report-scheduler';
import { ReportNotifier } from './report/notifications';
import { createJobQueue, type MeridianJobQueue } from './jobs/jobs';

/** Every domain service, built once from the app's dependencies; doors reach services only through here. */
export interface Services {
  config: Config;
  db: MetadataDb;
  logger: Logger;
  security: SecurityService;
  users: UserService;
  home: HomeService;
  /** The process's query pool and results backend (lazily started, closed with the app). */
  queryRuntime: QueryRuntime;
  /** Async SQL Lab queries, async chart data and report runs: in this process, or BullMQ with REDIS_URL. */
  jobs: MeridianJobQueue;
  databases: DatabaseService;
  sqllab: SqlLabService;
  sqllabExport: SqlLabExportService;
  queries: QueryService;
  savedQueries: SavedQueryService;
  keyValues: KeyValueService;
  tabStates: TabStateService;
  datasets: DatasetService;
  /** Chart data, explore form data (embedded store, or Redis with REDIS_URL). */
  cache: CacheStore;
  asyncEvents: AsyncEventService;
  chartData: ChartDataService;
  charts: ChartService;
  explore: ExploreService;
  annotationLayers: AnnotationLayerService;
  dashboards: DashboardService;
  filterStates: FilterStateService;
  assetExport: AssetExportService;
  cssTemplates: CssTemplateService;
  rls: RlsService;
  logs: LogService;
  roles: RoleService;
  uploads: UploadService;
  tags: TagService;
  screenshots: ScreenshotService;
  embedded: EmbeddedService;
  assetImport: AssetImportService;
  reports: ReportService;
  reportExecutor: ReportExecutor;
  /** Runs due reports; started by the app when REPORTS_SCHEDULER is on. */
  reportScheduler: ReportScheduler;
  notifier: ReportNotifier;
}

export function createServices(deps: { config: Config; db: MetadataDb; logger: Logger }): Services {
  const security = new SecurityService(new SecurityRepository(deps.db), new TokenSigner(deps.config.secretKey), { redisUrl: deps.config.redisUrl });
  const users = new UserService({ users: new UserRepository(deps.db), security });
  const home = new HomeService({ home: new HomeRepository(deps.db), security });
  const queryRuntime = new QueryRuntime(deps.config);
  // A job no live process will take again is failed by the domain it belongs to.
  const jobs = createJobQueue(deps.config, deps.logger, async (kind, data) => {
    // Never run from here (outside any job's lock): the query is failed, cancelled where it ran, and its user told.
    if (kind === 'sqllab') await sqllab.runQueued({ ...(data as SqlLabJob), readOnly: false }, { redelivered: true });
    else if (kind === 'chart-data') await chartData.abandonAsyncJob(data as ChartDataJob);
    else if (kind === 'report') await reportExecutor.abandon((data as ReportJob).reportId, new Date((data as ReportJob).scheduledAt));
  });
  const databases = new DatabaseService({ databases: new DatabaseRepository(deps.db), security, runtime: queryRuntime, crypto: new PasswordCrypto(deps.config.secretKey) });
  const queryRepo = new QueryRepository(deps.db);
  const sqllab = new SqlLabService({ ...deps, security, databases, queries: queryRepo, runtime: queryRuntime, jobs, events: () => asyncEvents });
  const sqllabExport = new SqlLabExportService({ ...deps, security, databases, queries: queryRepo, runtime: queryRuntime, sqllab });
  const queries = new QueryService({ security, queries: queryRepo, databases, runtime: queryRuntime, sqllab, jobs });
  // A stop made on any process reaches the one running the query, which cancels it on the database.
  jobs.onStop((clientId) => void queryRuntime.pool.stop(clientId).catch((err: unknown) => deps.logger.warn({ err, clientId }, 'stopping a query failed')));
  const savedQueries = new SavedQueryService({ savedQueries: new SavedQueryRepository(deps.db), security, databases });
  const keyValues = new KeyValueService({ keyValues: new KeyValueRepository(deps.db), permalinks: new PermalinkRepository(deps.db), security });
  const tabStates = new TabStateService({ tabStates: new TabStateRepository(deps.db), queries: queryRepo, databases, security });
  const datasets = new DatasetService({ datasets: new DatasetRepository(deps.db), databases, security, runtime: queryRuntime });
  // Datasets cache their database's name and URI: a database change forgets them.
  databases.onChange(() => datasets.invalidate());
  const cache = createCacheStore({ redisUrl: deps.config.redisUrl, prefix: 'meridian:cache:' });
  const asyncEvents = new AsyncEventService({ stream: deps.config.redisUrl ? new RedisEventStream(deps.config.redisUrl) : new MemoryEventStream(), security });
  const chartRepo = new ChartRepository(deps.db);
  const annotationLayers = new AnnotationLayerService({ annotationLayers: new AnnotationLayerRepository(deps.db), security });
  // Chart-sourced annotation layers run another chart's query through chart data, which in turn asks for annotation data.
  const annotationData: AnnotationData = new AnnotationData({ annotationLayers, charts: (): ChartService => charts, chartData: (): ChartDataService => chartData });
  const rls = new RlsService({ db: deps.db, security });
  const chartData = new ChartDataService({
    ...deps, security, datasets, databases, runtime: queryRuntime, cache, events: asyncEvents, rls,
    chartCacheTimeout: (id) => chartRepo.cacheTimeout(id),
    savedChart: (id) => chartRepo.get(id),
    dashboards: () => dashboards,
    annotationData,
    jobs: () => jobs,
  });
  const charts = new ChartService({ charts: chartRepo, datasets, security, users });
  const dashboards = new DashboardService({ dashboards: new DashboardRepository(deps.db), charts: chartRepo, datasets, security, users, dashboardRbac: deps.config.featureFlags.DASHBOARD_RBAC });
  const explore = new ExploreService({ security, datasets, charts, explore: new ExploreRepository(deps.db), cache });
  const filterStates = new FilterStateService({ security, dashboards, cache });
  const assetExport = new AssetExportService({ db: deps.db, security, charts, datasets, dashboards, databases, savedQueries });
  const assetImport = new AssetImportService({ db: deps.db, security, databases, datasets });
  const cssTemplates = new CssTemplateService({ db: deps.db, security });
  const screenshots = new ScreenshotService({ security, charts, dashboards, cache, renderer: new ScreenshotRenderer(deps.config.chromiumPath), logger: deps.logger });
  const tags = new TagService({ db: deps.db, security, charts, dashboards, savedQueries, datasets });
  const uploads = new UploadService({ security, databases, datasets, runtime: queryRuntime });
  const roles = new RoleService({ roles: new RoleRepository(deps.db), security });
  const logs = new LogService({ logs: new LogRepository(deps.db), security, logger: deps.logger });
  const embedded = new EmbeddedService({ db: deps.db, security, dashboards, secretKey: deps.config.secretKey });
  const reports = new ReportService({ db: deps.db, security, charts, dashboards, databases });
  const notifier = new ReportNotifier(deps.config);
  const reportExecutor = new ReportExecutor({ ...deps, security, reports, chartData, screenshots, databases, runtime: queryRuntime, notifier });
  const reportScheduler = new ReportScheduler({ db: deps.db, reports, executor: reportExecutor, logger: deps.logger, instance: queryRuntime.runner.instanceName, tickSeconds: deps.config.reports.tickSeconds, jobs: () => jobs });
  jobs.handle({
    sqllab: (job, delivery) => sqllab.runQueued(job, delivery),
    'chart-data': (job) => chartData.runAsyncJob(job),
    report: async (job, delivery) => {
      const scheduled = new Date(job.scheduledAt);
      if (delivery.redelivered) await reportExecutor.abandon(job.reportId, scheduled);
      else await reportExecutor.execute(job.reportId, scheduled);
    },
  });
  return { ...deps, jobs, reports, reportExecutor, reportScheduler, notifier, security, users, home, queryRuntime, databases, sqllab, sqllabExport, queries, savedQueries, keyValues, tabStates, datasets, cache, asyncEvents, chartData, charts, explore, annotationLayers, dashboards, filterStates, assetExport, assetImport, cssTemplates, rls, logs, roles, uploads, tags, screenshots, embedded };
}

/**
 * Closes what the services hold, in order: no new report runs, then the jobs this process runs are
 * waited for, then `stopQueries` (the one way queries are stopped, also called by a grace timer),
 * then the connections.
 */
export async function closeServices(services: Services, stopQueries: () => Promise<void>): Promise<void> {
  await services.reportScheduler.stop();
  services.notifier.close();
  await services.screenshots.close();
  // Waits for the jobs this process runs (stopped with the other queries once the grace period is over).
  await services.jobs.close();
  await stopQueries();
  await services.cache.close();
  await services.asyncEvents.close();
  await services.security.close();
}
