/**
 * Meridian's command line: `pnpm cli <command>`.
 *   migrate                      run pending migrations
 *   create-admin [--username U] [--password P] [--email E]
 *   reset-password --username U --password P
 *   load-examples                build the examples DuckDB database and register it
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/src/config';
import { migrateToLatest, openMetadataDb } from '../server/src/db/database';
import { ensureAdmin, resetPassword } from '../server/src/security/admin';

const [command, ...rest] = process.argv.slice(2);
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
      const result = await ensureAdmin(db, { username: values.username, password: values.password ?? config.adminPassword, email: values.email });
      console.log(result.created ? `Created admin user ${result.username}.` : `User ${result.username} already exists.`);
      break;
    }
    case 'reset-password': {
      if (!values.username || !values.password) throw new Error('usage: reset-password --username U --password P');
      console.log((await resetPassword(db, values.username, values.password)) ? 'Password changed.' : `No user ${values.username}.`);
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
