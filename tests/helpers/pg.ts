import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

/** Creates a throwaway PostgreSQL database `meridian_test_<random>`; `drop()` removes it. Fails loudly if PostgreSQL is down. */
export async function createPgDatabase(): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `meridian_test_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  return {
    name,
    url,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
