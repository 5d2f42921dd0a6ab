import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: `.data/` and `client/dist/` are found from here whatever the working directory. */
export const ROOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Feature flags that reach the client in its bootstrap data; each may be set as `FEATURE_<NAME>=true|false`. */
export const FEATURE_FLAG_DEFAULTS = {
  SQLLAB_BACKEND_PERSISTENCE: true,
  DASHBOARD_CROSS_FILTERS: true,
  DASHBOARD_RBAC: false,
  GLOBAL_ASYNC_QUERIES: false,
  ENABLE_TEMPLATE_PROCESSING: true,
  ALLOW_ADHOC_SUBQUERY: false,
  ALLOW_FULL_CSV_EXPORT: false,
  ALERT_REPORTS: true,
  TAGGING_SYSTEM: true,
  /** Cards of the chart and dashboard lists show pictures drawn on the server (needs CHROMIUM_PATH); off as in Superset. */
  THUMBNAILS: false,
} as const;
export type FeatureFlag = keyof typeof FEATURE_FLAG_DEFAULTS;

export interface Config {
  env: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  secretKey: string;
  workerPoolSize: number;
  /** WORKER_QUEUE_SIZE: queries that may wait for a thread (default 64 per thread); past it, ASYNC_WORKERS_ERROR. */
  workerQueueSize: number | null;
  sqlMaxRow: number;
  /** WEBSERVER_DOMAINS: other host names serving this app (Superset's domain sharding), comma-separated; none by default. */
  webserverDomains: string[];
  displayMaxRow: number;
  defaultSqllabLimit: number;
  sqllabTimeoutSeconds: number;
  sqllabAsyncTimeLimitSeconds: number;
  resultsMaxBytes: number;
  /** UPLOAD_MAX_BYTES: the largest file `database/{pk}/upload/` takes (streamed to disk, never held in memory). */
  uploadMaxBytes: number;
  /** CHROMIUM_PATH: the browser that draws chart and dashboard screenshots and thumbnails. */
  chromiumPath: string;
  resultsTtlSeconds: number;
  /** Seconds chart data stays cached when neither chart, dataset nor database says. */
  cacheDefaultTimeoutSeconds: number;
  /** Seconds a chart data query may run (Superset's SUPERSET_WEBSERVER_TIMEOUT). */
  chartQueryTimeoutSeconds: number;
  featureFlags: Record<FeatureFlag, boolean>;
  /**
   * Fastify's `trustProxy`: whether (true), how many hops (a number) or which proxy addresses (a
   * comma-separated list) to trust for X-Forwarded-For, so the login throttle sees client addresses.
   */
  trustProxy: boolean | number | string;
  /** Seconds a stopping server waits for running queries before it stops them. */
  shutdownGraceSeconds: number;
  adminPassword: string;
  /** The job queue on Redis (BullMQ): async SQL Lab queries, async chart data and report runs. */
  jobs: {
    /** JOB_QUEUE: the queue's name; every process of one deployment uses the same (default `meridian`). */
    queueName: string;
    /** WEB_RUNS_JOBS: whether a web process also consumes jobs (default true; false leaves them to `meridian worker`). */
    webRunsJobs: boolean;
    /** JOB_LOCK_SECONDS: how long a job's lock lasts without renewal (default 15); a dead process's jobs are handed over within twice this, before its heartbeat goes stale. */
    lockSeconds: number;
    /** RUNNER_HEARTBEAT_SECONDS: how often a process records that it is alive (its queries are failed three beats after it stops). */
    heartbeatSeconds: number;
  };
  /** Reports and alerts (ALERT_REPORTS): how they run and where they go. */
  reports: {
    /** REPORTS_SCHEDULER: whether this process looks for due reports (default on, off under NODE_ENV=test). */
    scheduler: boolean;
    /** REPORTS_TICK_SECONDS: how often it looks (default 60, on the minute). */
    tickSeconds: number;
    /** WEBDRIVER_BASEURL: where the renderer reaches this server (null: the address it listens on). */
    webdriverBaseUrl: string | null;
    /** WEBDRIVER_BASEURL_USER_FRIENDLY: the address links in reports point to (default WEBDRIVER_BASEURL). */
    userFriendlyBaseUrl: string;
  };
  /** Security headers (Superset's TALISMAN_*): a Content-Security-Policy on every page. */
  talisman: {
    /** TALISMAN_ENABLED: send the policy (default on). */
    enabled: boolean;
    /** FRAME_ANCESTORS: sites (space- or comma-separated origins) that may frame Meridian's pages; none by default. */
    frameAncestors: string[];
  };
  /**
   * COMPRESS_REGISTER (Superset's name): compress answers over 1 KB for clients that accept it (default on). Off
   * when a proxy in front compresses, or when server and browsers share one busy machine.
   */
  compressResponses: boolean;
  /** SMTP_*: the mail server reports are sent through. */
  smtp: { host: string; port: number; user: string | null; password: string | null; from: string; starttls: boolean; ssl: boolean };
  logLevel: string;
}

function intFrom(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`Expected a whole number, got "${value}"`);
  return n;
}

/** TRUST_PROXY: `true`/`false`, a hop count, or proxy addresses/CIDRs separated by commas. */
function trustProxyFrom(value: string | undefined): boolean | number | string {
  if (value === undefined || value.trim() === '' || /^(0|false|no|off)$/i.test(value.trim())) return false;
  if (/^(true|yes|on)$/i.test(value.trim())) return true;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  return value.split(',').map((part) => part.trim()).filter(Boolean).join(',');
}

function boolFrom(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return /^(1|true|yes|on)$/i.test(value);
}

/** The secret key: SECRET_KEY, else one generated once and kept under the data dir; production refuses to run without one. */
function secretKeyFrom(env: NodeJS.ProcessEnv, dataDir: string): string {
  if (env.SECRET_KEY) return env.SECRET_KEY;
  if (env.NODE_ENV === 'production') {
    throw new Error('SECRET_KEY must be set when NODE_ENV=production: refusing to start with a generated key.');
  }
  const file = join(dataDir, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

/** Reads Meridian's configuration from the environment; every setting has a documented default (README). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(env.DATA_DIR ?? join(ROOT_DIR, '.data'));
  const featureFlags = { ...FEATURE_FLAG_DEFAULTS } as Record<FeatureFlag, boolean>;
  for (const flag of Object.keys(featureFlags) as FeatureFlag[]) {
    featureFlags[flag] = boolFrom(env[`FEATURE_${flag}`], featureFlags[flag]);
  }
  const sqlMaxRow = intFrom(env.SQL_MAX_ROW, 100_000);
  return {
    env: env.NODE_ENV ?? 'development',
    port: intFrom(env.PORT, 8088),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    secretKey: secretKeyFrom(env, dataDir),
    workerPoolSize: intFrom(env.WORKER_POOL_SIZE, availableParallelism()),
    workerQueueSize: intFrom(env.WORKER_QUEUE_SIZE, 0) || null,
    sqlMaxRow,
    webserverDomains: (env.WEBSERVER_DOMAINS ?? '').split(',').map((d) => d.trim()).filter(Boolean),
    displayMaxRow: intFrom(env.DISPLAY_MAX_ROW, 10_000),
    defaultSqllabLimit: Math.min(intFrom(env.DEFAULT_SQLLAB_LIMIT, 1000), sqlMaxRow),
    sqllabTimeoutSeconds: intFrom(env.SQLLAB_TIMEOUT, 30),
    sqllabAsyncTimeLimitSeconds: intFrom(env.SQLLAB_ASYNC_TIME_LIMIT, 6 * 60 * 60),
    resultsMaxBytes: intFrom(env.RESULTS_MAX_BYTES, 2 * 1024 * 1024 * 1024),
    uploadMaxBytes: intFrom(env.UPLOAD_MAX_BYTES, 1024 * 1024 * 1024),
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    resultsTtlSeconds: intFrom(env.RESULTS_TTL_SECONDS, 24 * 60 * 60) || 24 * 60 * 60,
    cacheDefaultTimeoutSeconds: intFrom(env.CACHE_DEFAULT_TIMEOUT, 24 * 60 * 60),
    chartQueryTimeoutSeconds: intFrom(env.SUPERSET_WEBSERVER_TIMEOUT, 60) || 60,
    featureFlags,
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    shutdownGraceSeconds: intFrom(env.SHUTDOWN_GRACE_SECONDS, 25),
    adminPassword: env.ADMIN_PASSWORD || 'admin',
    jobs: {
      queueName: env.JOB_QUEUE || 'meridian',
      webRunsJobs: boolFrom(env.WEB_RUNS_JOBS, true),
      lockSeconds: intFrom(env.JOB_LOCK_SECONDS, 15) || 15,
      heartbeatSeconds: intFrom(env.RUNNER_HEARTBEAT_SECONDS, 10) || 10,
    },
    reports: {
      scheduler: boolFrom(env.REPORTS_SCHEDULER, env.NODE_ENV !== 'test'),
      tickSeconds: intFrom(env.REPORTS_TICK_SECONDS, 60) || 60,
      webdriverBaseUrl: env.WEBDRIVER_BASEURL ? env.WEBDRIVER_BASEURL.replace(/\/$/, '') : null,
      userFriendlyBaseUrl: (env.WEBDRIVER_BASEURL_USER_FRIENDLY || env.WEBDRIVER_BASEURL || `http://localhost:${intFrom(env.PORT, 8088)}`).replace(/\/$/, ''),
    },
    compressResponses: boolFrom(env.COMPRESS_REGISTER, true),
    talisman: {
      enabled: boolFrom(env.TALISMAN_ENABLED, true),
      frameAncestors: (env.FRAME_ANCESTORS ?? '').split(/[\s,]+/).filter(Boolean),
    },
    smtp: {
      host: env.SMTP_HOST || 'localhost',
      port: intFrom(env.SMTP_PORT, 25),
      user: env.SMTP_USER || null,
      password: env.SMTP_PASSWORD || null,
      from: env.SMTP_MAIL_FROM || 'meridian@localhost',
      starttls: boolFrom(env.SMTP_STARTTLS, false),
      ssl: boolFrom(env.SMTP_SSL, false),
    },
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
  };
}
