import { hostname } from 'node:os';
import { loadConfig } from './config';
import { migrateToLatest, openMetadataDb } from './db/database';
import { createLogger } from './logger';
import { QueryRunnerHeartbeat } from './query/query-runner';
import { closeServices, createServices } from './services';
import { exitOnSignals } from './shutdown';

/**
 * `meridian worker` (`pnpm worker`): a process that serves no HTTP and only takes jobs from the queue
 * on Redis (async SQL Lab queries, async chart data, report runs) with its own pool of
 * WORKER_POOL_SIZE threads. It shares the PostgreSQL metadata store and Redis with the web processes.
 */
export async function runWorker(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  if (!config.redisUrl || !config.databaseUrl) {
    logger.error('a worker takes jobs from Redis and records them in PostgreSQL: set REDIS_URL and DATABASE_URL (the embedded default runs everything in the web process)');
    process.exit(2);
  }
  // Several workers may run on one host: each is its own instance, so none takes another's queries for a previous life of its own.
  process.env.INSTANCE_NAME ||= `${hostname()}:worker:${process.pid}`;
  const db = await openMetadataDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(db);
  const services = createServices({ config, db, logger });
  const heartbeat = QueryRunnerHeartbeat.forProcess(services);
  await heartbeat.start();
  services.jobs.consume(config.workerPoolSize);
  logger.info({ instance: services.queryRuntime.runner.instanceName, queue: config.jobs.queueName, threads: config.workerPoolSize }, 'worker taking jobs');
  process.stdout.write(`\n  Meridian worker ${services.queryRuntime.runner.instanceName} is taking jobs from queue "${config.jobs.queueName}" with ${config.workerPoolSize} threads\n\n`);

  let stopping: Promise<void> | undefined;
  const stopQueries = () => (stopping ??= services.queryRuntime.close());
  exitOnSignals({
    logger,
    graceSeconds: config.shutdownGraceSeconds,
    close: async () => {
      // Jobs under way get the grace period to finish; then their queries are stopped (recorded as stopped, cancelled on the database).
      const grace = setTimeout(() => void stopQueries(), config.shutdownGraceSeconds * 1000);
      grace.unref();
      try {
        await closeServices(services, async () => {
          clearTimeout(grace);
          await stopQueries();
        });
      } finally {
        await heartbeat.stop().catch((err: unknown) => logger.error({ err }, 'error while removing the query runner heartbeat'));
        await db.destroy().catch((err: unknown) => logger.error({ err }, 'error while closing the metadata store'));
      }
    },
  });
}

await runWorker();
