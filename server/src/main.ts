import { loadConfig } from './config';
import { migrateToLatest, openMetadataDb } from './db/database';
import { createLogger } from './logger';
import { ensureAdmin } from './security/admin';
import { loadExamples } from './examples';
import { failOrphanedQueries } from './query/query.repository';
import { buildApp } from './app';
import { createServices } from './services';

/** Starts Meridian: migrate, seed roles and the admin, serve; stops gracefully on SIGINT/SIGTERM. */
export async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await openMetadataDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrateToLatest(db);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const admin = await ensureAdmin(db, { password: config.adminPassword });
  const orphaned = await failOrphanedQueries(db);
  if (orphaned) logger.warn({ orphaned }, 'queries left running by the last process were marked failed');
  if (!/^(0|false|no)$/i.test(process.env.LOAD_EXAMPLES ?? '')) {
    const t0 = Date.now();
    const { database, datasets } = await loadExamples({ config, db });
    if (database.built || datasets.created.length) logger.info({ ms: Date.now() - t0, datasets: datasets.created }, 'examples loaded');
  }
  const services = createServices({ config, db, logger });
  const app = await buildApp(services);
  await app.listen({ port: config.port, host: process.env.HOST ?? '0.0.0.0' });
  const login = admin.created ? `${admin.username} / ${config.adminPassword === 'admin' ? 'admin' : '(ADMIN_PASSWORD)'}` : `${admin.username} (existing password)`;
  process.stdout.write(`\n  Meridian is running at http://localhost:${config.port}/\n  Log in as ${login}\n\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

await main();
