/**
 * Meridian's command line: `pnpm cli <command>`.
 *   migrate                      run pending migrations
 *   create-admin [--username U] [--password P] [--email E]   (an existing user is given the Admin role)
 *   reset-password --username U --password P               (exits 1 when there is no such user)
 *   load-examples                build the examples DuckDB database and register it
 *   worker                       take jobs from the queue on Redis (REDIS_URL, DATABASE_URL), as `pnpm worker`
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/src/config';
import { migrateToLatest, openMetadataDb } from '../server/src/db/database';
import { ensureAdmin, resetPassword } from '../server/src/security/admin';

const [command, ...rest] = process.argv.slice(2);
// A worker is a long-running process of its own, with its own connections.
if (command === 'worker') {
  await import('../server/src/worker-main');
  await new Promise(() => undefined);
}
const { values } = parseArgs({ args: rest, options: { username: { type: 'string' }, password: { type: 'string' }, email: { type: 'string' } } });
const config = loadConfig();
const db = await openMetadataDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  switch (command) {
    case 'migrate': {
      const applied = await migrateToLatest(db);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
      break;
    }
    case 'create-admin': {
      await migrateToLatest(db);
      const result = await ensureAdmin(db, { username: values.username, password: values.password ?? config.adminPassword, email: values.email, promoteExisting: true });
      console.log(
        result.created
          ? `Created admin user ${result.username}.`
          : result.promoted
            ? `User ${result.username} already exists; gave it the Admin role (password unchanged).`
            : `User ${result.username} already exists and has the Admin role (password unchanged).`,
      );
      break;
    }
    case 'reset-password': {
      if (!values.username || !values.password) {
        console.error('usage: pnpm cli reset-password --username U --password P');
        process.exitCode = 2;
        break;
      }
      if (await resetPassword(db, values.username, values.password)) {
        console.log('Password changed.');
      } else {
        console.error(`No user ${values.username}.`);
        process.exitCode = 1;
      }
      break;
    }
    case 'load-examples': {
      await migrateToLatest(db);
      const { loadExamples } = await import('../server/src/examples');
      await loadExamples({ config, db });
      console.log('Examples loaded.');
      break;
    }
    default:
      console.log('usage: pnpm cli migrate | create-admin | reset-password | load-examples');
      process.exitCode = command ? 2 : 0;
  }
} finally {
  await db.destroy();
}
