import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_IDS, buildExamplesDuckDb, EXAMPLE_TABLES, generateBirthNames, generateWorldBank, loadExamplesPostgres, WB_COUNTRIES } from './index';

const PG_ADMIN_URL = process.env.MERIDIAN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

// Fingerprints: every value reduced to BIGINT text, so DuckDB and PostgreSQL results compare as strings.
const big = (expr: string) => `CAST(CAST(${expr} AS BIGINT) AS TEXT)`;
const FINGERPRINTS: Record<string, string> = {
  birth_names: `SELECT ${[
    'count(*)', 'sum(num)', 'sum(num_boys)', 'sum(num_girls)', 'sum(num * length(name))', 'sum(num * length(state))',
    'sum(num * length(gender))', 'count(DISTINCT name)', 'count(DISTINCT state)', 'sum(num * extract(year FROM ds))',
    'min(extract(year FROM ds))', 'max(extract(year FROM ds))',
  ].map(big).join(', ')} FROM birth_names`,
  wb_health_population: `SELECT ${[
    'count(*)', 'sum("SP_POP_TOTL")', 'sum("SP_RUR_TOTL")', 'sum(round("SP_RUR_TOTL_ZS" * 1000))', 'sum(round("SP_DYN_LE00_IN" * 1000))',
    'sum(round("SP_DYN_TFRT_IN" * 1000))', 'sum(round("SH_DYN_MORT" * 10))', 'sum(round("SP_POP_65UP_TO_ZS" * 1000))',
    'sum("NY_GNP_PCAP_CD")', 'count("NY_GNP_PCAP_CD")', 'sum("SH_DYN_AIDS")', 'sum(round("SP_POP_GROW" * 1000))',
    'sum(length(country_name) * extract(year FROM year))', 'sum(length(region) * length(country_code))', 'count(DISTINCT region)',
  ].map(big).join(', ')} FROM wb_health_population`,
  cleaned_sales_data: `SELECT ${[
    'count(*)', 'sum(order_number)', 'sum(quantity * (order_number % 1009))', 'sum(round(price * 100) * (order_number % 101))',
    'sum(round(sales * 100))', 'sum(length(status) * (order_number % 13))', 'sum(length(city) * (order_number % 17))',
    'sum(length(country) * (order_number % 7))', 'sum(length(product_line) * quantity)', 'sum(length(deal_size) * (order_number % 19))',
    'sum(extract(day FROM order_date) * (order_number % 23))', 'sum(extract(month FROM order_date) * (order_number % 29))',
    'min(extract(year FROM order_date))', 'max(extract(year FROM order_date))',
  ].map(big).join(', ')} FROM cleaned_sales_data`,
  big_ids: `SELECT CAST(id AS TEXT) AS id_text, label FROM big_ids ORDER BY big_ids.id`,
};

async function duckRows(path: string, sql: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.fromCache(path);
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowsJS();
  } finally {
    conn.disconnectSync();
  }
}

async function duckFingerprints(path: string): Promise<Record<string, unknown[][]>> {
  const out: Record<string, unknown[][]> = {};
  for (const [table, sql] of Object.entries(FINGERPRINTS)) out[table] = await duckRows(path, sql);
  return out;
}

const TEXT_TYPES = { getTypeParser: () => (v: string) => v };

let dir: string;
let fileA: string;
let buildMs = 0;
let firstBuild: Awaited<ReturnType<typeof buildExamplesDuckDb>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'meridian-examples-'));
  fileA = join(dir, 'examples.duckdb');
  const t0 = performance.now();
  firstBuild = await buildExamplesDuckDb(fileA);
  buildMs = performance.now() - t0;
  console.log(`examples DuckDB build (1,000,000 sales rows): ${Math.round(buildMs)} ms`, JSON.stringify(firstBuild.tables));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('examples: generators', () => {
  it('are deterministic in memory', () => {
    expect(JSON.stringify(generateBirthNames().rows)).toBe(JSON.stringify(generateBirthNames().rows));
    expect(JSON.stringify(generateWorldBank().rows)).toBe(JSON.stringify(generateWorldBank().rows));
  });

  it('list about 200 countries with unique ISO3 codes and every World Bank region', () => {
    const codes = new Set(WB_COUNTRIES.map((c) => c[0]));
    expect(codes.size).toBe(WB_COUNTRIES.length);
    expect(WB_COUNTRIES.length).toBeGreaterThanOrEqual(200);
    for (const c of WB_COUNTRIES) expect(c[0]).toMatch(/^[A-Z]{3}$/);
  });
});

describe('examples: DuckDB', () => {
  it('builds every table with the expected row counts', async () => {
    const rows = Object.fromEntries(firstBuild.tables.map((t) => [t.name, t.rows]));
    expect(Object.keys(rows).sort()).toEqual(EXAMPLE_TABLES.map((t) => t.name).sort());
    expect(rows.birth_names).toBeGreaterThan(60_000);
    expect(rows.birth_names).toBeLessThan(90_000);
    expect(rows.wb_health_population).toBe((WB_COUNTRIES.length + 12) * 55);
    expect(rows.cleaned_sales_data).toBe(1_000_000);
    expect(rows.big_ids).toBe(BIG_IDS.length);
    expect(buildMs).toBeLessThan(30_000);
  });

  it('matches the EXAMPLE_TABLES column metadata and every metric runs', async () => {
    for (const t of EXAMPLE_TABLES) {
      const cols = await duckRows(fileA, `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = '${t.name}' ORDER BY ordinal_position`);
      expect(cols).toEqual(t.columns.map((c) => [c.name, c.type]));
      if (t.mainDttmCol) expect(t.columns.find((c) => c.name === t.mainDttmCol)?.type).toBe('TIMESTAMP');
      for (const m of t.metrics) await expect(duckRows(fileA, `SELECT ${m.expression} FROM ${t.name}`)).resolves.toHaveLength(1);
    }
  });

  it('finds ids beyond 2^53 exactly (read as bigint)', async () => {
    const rows = await duckRows(fileA, 'SELECT id FROM big_ids WHERE id = 9007199254740993');
    expect(rows).toEqual([[9007199254740993n]]);
    const all = (await duckRows(fileA, 'SELECT id FROM big_ids')).map((r) => r[0]);
    for (const id of [9007199254740993n, 9007199254740995n, 9223372036854775807n]) expect(all).toContain(id);
    expect(await duckRows(fileA, 'SELECT count(*) FROM big_ids WHERE id = 9007199254740992')).toEqual([[1n]]);
  });

  it('produces plausible content', async () => {
    const [bn] = await duckRows(fileA, `SELECT min(year(ds)), max(year(ds)), count(DISTINCT gender), bool_and(num = num_boys + num_girls), bool_and(num >= 5),
      count(DISTINCT state) FILTER (WHERE state = 'other') FROM birth_names`);
    expect(bn).toEqual([1965n, 2008n, 2n, true, true, 1n]);
    const [wb] = await duckRows(fileA, `SELECT min(year(year)), max(year(year)), count(DISTINCT region), bool_and("SP_DYN_LE00_IN" BETWEEN 20 AND 90),
      bool_and(abs("SP_RUR_TOTL_ZS" + "SP_URB_TOTL_IN_ZS" - 100) < 0.01) FROM wb_health_population`);
    expect(wb).toEqual([1960n, 2014n, 8n, true, true]);
    const [world] = await duckRows(fileA, `SELECT "SP_POP_TOTL" FROM wb_health_population WHERE country_code = 'WLD' AND year = TIMESTAMP '2014-01-01'`);
    expect(world[0] as number).toBeGreaterThan(7e9);
    const [s] = await duckRows(fileA, `SELECT min(order_date) >= TIMESTAMP '2003-01-01', max(order_date) < TIMESTAMP '2006-01-01',
      bool_and(sales = round(quantity * price, 2)), count(DISTINCT status), count(DISTINCT product_line), count(DISTINCT deal_size),
      bool_and((deal_size = 'Small') = (sales < 3000)), count(DISTINCT order_number) FROM cleaned_sales_data`);
    expect(s).toEqual([true, true, true, 6n, 7n, 3n, true, 250_000n]);
  });

  it('is idempotent (rebuilding the same file leaves the same data) and deterministic across files', async () => {
    const before = await duckFingerprints(fileA);
    const again = await buildExamplesDuckDb(fileA);
    expect(again.tables).toEqual(firstBuild.tables);
    expect(await duckFingerprints(fileA)).toEqual(before);

    const fileB = join(dir, 'examples-b.duckdb');
    await buildExamplesDuckDb(fileB);
    expect(await duckFingerprints(fileB)).toEqual(before);
  });
});

describe('examples: PostgreSQL', () => {
  const dbName = `meridian_test_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  let url: string;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const u = new URL(PG_ADMIN_URL);
    u.pathname = `/${dbName}`;
    url = u.toString();
  });

  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  });

  async function pgFingerprints(schema: string): Promise<Record<string, unknown[][]>> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SET search_path TO "${schema}"`);
      const out: Record<string, unknown[][]> = {};
      for (const [table, sql] of Object.entries(FINGERPRINTS)) {
        out[table] = (await client.query({ text: sql, rowMode: 'array', types: TEXT_TYPES })).rows;
      }
      return out;
    } finally {
      await client.end();
    }
  }

  it('loads the same data as DuckDB (1,000,000 sales rows)', async () => {
    const t0 = performance.now();
    const res = await loadExamplesPostgres(url);
    console.log(`examples PostgreSQL load (1,000,000 sales rows): ${Math.round(performance.now() - t0)} ms`);
    expect(res.tables).toEqual(firstBuild.tables);
    expect(await pgFingerprints('public')).toEqual(await duckFingerprints(fileA));

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const r = await client.query({ text: 'SELECT id FROM big_ids WHERE id = 9007199254740993', types: TEXT_TYPES });
      expect(r.rows).toEqual([{ id: '9007199254740993' }]);
      for (const t of EXAMPLE_TABLES) for (const m of t.metrics) await client.query(`SELECT ${m.expression} FROM ${t.name}`);
    } finally {
      await client.end();
    }
  });

  it('honours the schema option and is idempotent', async () => {
    const first = await loadExamplesPostgres(url, { schema: 'examples', salesRows: 20_000 });
    const second = await loadExamplesPostgres(url, { schema: 'examples', salesRows: 20_000 });
    expect(second.tables).toEqual(first.tables);
    expect(first.tables.find((t) => t.name === 'cleaned_sales_data')?.rows).toBe(20_000);

    const small = join(dir, 'examples-small.duckdb');
    await buildExamplesDuckDb(small, { salesRows: 20_000 });
    expect(await pgFingerprints('examples')).toEqual(await duckFingerprints(small));
  });
});
