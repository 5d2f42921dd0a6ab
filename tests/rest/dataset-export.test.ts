import { inflateRawSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPgDatabase } from '../helpers/pg';
import { bearer, registerDatabase } from './sqllab.helpers';

const PASSWORD = 'S3cret-Pw9';

/** The files of a zip as text, read from its local headers (the export writes sizes there). */
function unzip(zip: Buffer): Record<string, string> {
  const files: Record<string, string> = {};
  let at = 0;
  while (zip.readUInt32LE(at) === 0x04034b50) {
    const method = zip.readUInt16LE(at + 8);
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extraLength = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    const start = at + 30 + nameLength + extraLength;
    const data = zip.subarray(start, start + size);
    files[name] = (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    at = start + size;
  }
  return files;
}

/** A YAML scalar: double-quoted strings are JSON, null/true/false/numbers as YAML reads them, else plain text. */
function scalar(text: string): unknown {
  if (text.startsWith('"')) return JSON.parse(text);
  if (text === 'null' || text === '~') return null;
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === '[]') return [];
  if (text === '{}') return {};
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/** Reads block-style YAML (mappings, lists of mappings, scalars), enough to check an export by field name. */
function readYaml(yaml: string): any {
  const lines = yaml.split('\n').filter((l) => l.trim() !== '');
  let at = 0;
  const indentOf = (l: string) => l.length - l.trimStart().length;
  const block = (indent: number): any => {
    if (lines[at].trimStart().startsWith('- ')) {
      const items: unknown[] = [];
      while (at < lines.length && indentOf(lines[at]) === indent && lines[at].trimStart().startsWith('- ')) {
        // a list item: its first line after '- ' opens a mapping at indent + 2
        lines[at] = `${' '.repeat(indent + 2)}${lines[at].trimStart().slice(2)}`;
        items.push(lines[at].includes(': ') || lines[at].trimEnd().endsWith(':') ? block(indent + 2) : scalar(lines[at++].trim()));
      }
      return items;
    }
    const out: Record<string, unknown> = {};
    while (at < lines.length && indentOf(lines[at]) === indent && !lines[at].trimStart().startsWith('- ')) {
      const l = lines[at++].trim();
      const colon = l.indexOf(':');
      const key = l.slice(0, colon);
      const rest = l.slice(colon + 1).trim();
      out[key] = rest === '' ? block(indentOf(lines[at])) : scalar(rest);
    }
    return out;
  };
  return block(0);
}

describe('GET /api/v1/dataset/export/ (Superset ImportExport v1 YAML)', () => {
  let t: TestApp;
  let admin: string;
  let drop: () => Promise<void>;
  let dbId: number;
  let physicalId: number;
  let virtualId: number;
  let files: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    const db = await createPgDatabase();
    drop = db.drop;
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('CREATE TABLE sales (ts TIMESTAMP, region VARCHAR(10), amount INTEGER)');
    await client.end();
    // The server trusts local connections, so any password connects; the export must still never carry it.
    dbId = await registerDatabase(t, admin, { database_name: 'pg sales', sqlalchemy_uri: db.url.replace('postgres@', `postgres:${PASSWORD}@`) });
    const physical = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: dbId, schema: 'public', table_name: 'sales' });
    expect(physical.status, physical.text).toBe(201);
    physicalId = physical.body.id;
    const current = physical.body.data;
    const put = await t.http.put(`/api/v1/dataset/${physicalId}`).set(bearer(admin)).send({
      description: 'Sales by region',
      columns: [...current.columns.map((c: any) => ({ id: c.id, column_name: c.column_name, type: c.type, is_dttm: c.is_dttm })), { column_name: 'amount_x2', expression: 'amount * 2', type: 'INTEGER' }],
      metrics: [...current.metrics.map((m: any) => ({ id: m.id, metric_name: m.metric_name, expression: m.expression })), { metric_name: 'total', expression: 'SUM(amount)', d3format: ',.2f', warning_text: 'Excludes refunds' }],
    });
    expect(put.status, put.text).toBe(200);
    const virtual = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: dbId, schema: 'public', table_name: 'north_sales', sql: "SELECT ts, amount FROM sales WHERE region = 'north'" });
    expect(virtual.status, virtual.text).toBe(201);
    virtualId = virtual.body.id;

    const exp = await t.http.get('/api/v1/dataset/export/').query({ q: `!(${physicalId},${virtualId})` }).set(bearer(admin)).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(exp.status).toBe(200);
    expect(exp.headers['content-disposition']).toMatch(/^attachment; filename=dataset_export_\d{8}T\d{6}\.zip$/);
    files = unzip(exp.body as Buffer);
  });
  afterAll(async () => {
    await t?.close();
    await drop?.();
  });

  const yamlOf = (part: string) => readYaml(Object.entries(files).find(([name]) => name.includes(part))![1]);

  it('holds metadata.yaml, one database file and one file per dataset under one root folder', () => {
    const names = Object.keys(files).sort();
    const root = names[0].split('/')[0];
    expect(root).toMatch(/^dataset_export_\d{8}T\d{6}$/);
    expect(names).toEqual([
      `${root}/databases/pg_sales.yaml`,
      `${root}/datasets/pg_sales/north_sales_${virtualId}.yaml`,
      `${root}/datasets/pg_sales/sales_${physicalId}.yaml`,
      `${root}/metadata.yaml`,
    ]);
    expect(yamlOf('metadata.yaml')).toMatchObject({ version: '1.0.0', type: 'SqlaTable' });
  });

  it('never carries the password: the database URI is masked as Superset exports it', () => {
    for (const [name, text] of Object.entries(files)) expect(text.includes(PASSWORD), name).toBe(false);
    const database = yamlOf('/databases/');
    expect(database).toMatchObject({ database_name: 'pg sales', version: '1.0.0' });
    expect(database.sqlalchemy_uri).toMatch(/^postgresql:\/\/postgres:XXXXXXXXXX@127\.0\.0\.1:5432\/meridian_test_[0-9a-f]+$/);
    expect(database).not.toHaveProperty('password');
    expect(database.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('the physical dataset: table_name, schema, columns with column_name/type/is_dttm, metrics with metric_name/expression, database_uuid', () => {
    const ds = yamlOf(`/sales_${physicalId}.yaml`);
    expect(ds).toMatchObject({ table_name: 'sales', schema: 'public', sql: null, description: 'Sales by region', main_dttm_col: 'ts', version: '1.0.0' });
    expect(ds.database_uuid).toBe(yamlOf('/databases/').uuid);
    expect(ds.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(ds.columns.map((c: any) => [c.column_name, c.type, c.is_dttm, c.expression])).toEqual([
      ['ts', 'TIMESTAMP WITHOUT TIME ZONE', true, null],
      ['region', 'CHARACTER VARYING(10)', false, null],
      ['amount', 'INTEGER', false, null],
      ['amount_x2', 'INTEGER', false, 'amount * 2'],
    ]);
    expect(ds.metrics.map((m: any) => [m.metric_name, m.expression, m.d3format, m.warning_text])).toEqual([
      ['count', 'COUNT(*)', null, null],
      ['total', 'SUM(amount)', ',.2f', 'Excludes refunds'],
    ]);
  });

  it('the virtual dataset carries its sql', () => {
    const ds = yamlOf(`/north_sales_${virtualId}.yaml`);
    expect(ds).toMatchObject({ table_name: 'north_sales', schema: 'public', sql: "SELECT ts, amount FROM sales WHERE region = 'north'" });
    expect(ds.columns.map((c: any) => c.column_name)).toEqual(['ts', 'amount']);
  });
});
