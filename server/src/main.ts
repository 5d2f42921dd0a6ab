import { loadConfig } from './config';
import { migrateToLatest, openMetadataDb } from './db/database';
import { createLogger } from './logger';
import { ensureAdmin } from './security/admin';
import { loadExamples } from './examples';
import { failOrphanedQueries } from './query/query.repository';
import { QueryRunnerHeartbeat } from './query/query-runner';
import { buildApp } from './app';
import { createServices } from './services';
import { exitOnSignals } from './shutdown';

/** Starts Meridian: migrate, seed roles and the admin, serve; stops gracefully on SIGINT/SIGTERM. */
export async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await openMetadataDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrateToLatest(db);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const admin = await ensureAdmin(db, { password: config.adminPassword });
  // The embedded store serves one process only: whatever it left running is orphaned. On PostgreSQL
  // several processes may share the store, so only queries of runs that stopped beating are (below).
  if (!config.databaseUrl) {
    const orphaned = await failOrphanedQueries(db);
    if (orphaned) logger.warn({ orphaned }, 'queries left running by the last process were marked failed');
  }
  if (!/^(0|false|no)$/i.test(process.env.LOAD_EXAMPLES ?? '')) {
    const t0 = Date.now();
    const { database, datasets, dashboards } = await loadExamples({ config, db });
    if (database.built || datasets.created.length || dashboards.created.length) logger.info({ ms: Date.now() - t0, datasets: datasets.created, dashboards: dashboards.created }, 'examples loaded');
  }
  const services = createServices({ config, db, logger });
  const app = await buildApp(services);
  const heartbeat = config.databaseUrl ? QueryRunnerHeartbeat.forProcess(services) : null;
  await heartbeat?.start();
  await app.listen({ port: config.port, host: process.env.HOST ?? '0.0.0.0' });
  const login = admin.created ? `${admin.username} / ${config.adminPassword === 'admin' ? 'admin' : '(ADMIN_PASSWORD)'}` : `${admin.username} (existing password)`;
  process.stdout.write(`\n  Meridian is running at http://localhost:${config.port}/\n  Log in as ${login}\n\n`);

  exitOnSignals({
    logger,
    graceSeconds: config.shutdownGraceSeconds,
    close: async () => {
      // app.close() stops running queries once the grace period is over.
      try {
        await app.close();
      } finally {
        await heartbeat?.stop().catch((err: unknown) => logger.error({ err }, 'error while removing the query runner heartbeat'));
        await db.destroy().catch((err: unknown) => logger.error({ err }, 'error while closing the metadata store'));
      }
    },
  });
}

await main();
