import { normaliseQueryObject } from '@meridian/contracts/chart-data/query-object';
import { buildQuerySql, type DatasetForQuery } from '@meridian/contracts/chart-data/sql-builder';
import { describe, expect, it } from 'vitest';
import { dialectFor } from './query-dialect';

const now = new Date('2024-03-15T10:30:00Z');
const births: DatasetForQuery = {
  table_name: 'birth_names',
  schema: null,
  columns: [
    { column_name: 'ds', type: 'TIMESTAMP', is_dttm: true },
    { column_name: 'gender', type: 'VARCHAR' },
    { column_name: 'name', type: 'VARCHAR' },
    { column_name: 'num', type: 'BIGINT' },
  ],
  metrics: [{ metric_name: 'sum__num', expression: 'SUM(num)' }],
};
// One grouped monthly time series with a filter on a name holding a quote and a case-insensitive match.
const query = normaliseQueryObject(
  {
    columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: 'P1M' }, 'gender'],
    metrics: ['sum__num'],
    filters: [
      { col: 'name', op: 'ILIKE', val: "o'h%" },
      { col: 'ds', op: 'TEMPORAL_RANGE', val: '2020-01-01 : 2021-01-01' },
    ],
    row_limit: 100,
  },
  { now },
);
const sqlFor = (uri: string) => buildQuerySql(query, births, dialectFor(uri), { now }).sql;

describe('generated SQL per engine (real engine specs)', () => {
  it('postgresql', () => {
    expect(sqlFor('postgresql://u@h/db')).toBe(
      `SELECT DATE_TRUNC('month', "ds") AS "ds", "gender" AS "gender", SUM(num) AS "sum__num"\nFROM "birth_names"\n` +
        `WHERE "name" ILIKE 'o''h%' AND "ds" >= TIMESTAMP '2020-01-01 00:00:00' AND "ds" < TIMESTAMP '2021-01-01 00:00:00'\n` +
        `GROUP BY DATE_TRUNC('month', "ds"), "gender"\nLIMIT 100`,
    );
  });
  it('mysql', () => {
    expect(sqlFor('mysql://root@127.0.0.1/test')).toBe(
      'SELECT DATE(DATE_SUB(`ds`, INTERVAL DAYOFMONTH(`ds`) - 1 DAY)) AS `ds`, `gender` AS `gender`, SUM(num) AS `sum__num`\nFROM `birth_names`\n' +
        "WHERE LOWER(`name`) LIKE LOWER('o''h%') AND `ds` >= TIMESTAMP '2020-01-01 00:00:00' AND `ds` < TIMESTAMP '2021-01-01 00:00:00'\n" +
        'GROUP BY DATE(DATE_SUB(`ds`, INTERVAL DAYOFMONTH(`ds`) - 1 DAY)), `gender`\nLIMIT 100',
    );
  });
  it('duckdb', () => {
    expect(sqlFor('duckdb:////tmp/x.duckdb')).toBe(
      `SELECT DATE_TRUNC('month', "ds") AS "ds", "gender" AS "gender", SUM(num) AS "sum__num"\nFROM "birth_names"\n` +
        `WHERE "name" ILIKE 'o''h%' AND "ds" >= TIMESTAMP '2020-01-01 00:00:00' AND "ds" < TIMESTAMP '2021-01-01 00:00:00'\n` +
        `GROUP BY DATE_TRUNC('month', "ds"), "gender"\nLIMIT 100`,
    );
  });
  it('sqlite', () => {
    expect(sqlFor('sqlite:////tmp/x.db')).toBe(
      `SELECT DATETIME("ds", 'start of month') AS "ds", "gender" AS "gender", SUM(num) AS "sum__num"\nFROM "birth_names"\n` +
        `WHERE LOWER("name") LIKE LOWER('o''h%') AND "ds" >= '2020-01-01 00:00:00' AND "ds" < '2021-01-01 00:00:00'\n` +
        `GROUP BY DATETIME("ds", 'start of month'), "gender"\nLIMIT 100`,
    );
  });
  it('epoch columns become timestamps before the grain, per engine', () => {
    const epochs: DatasetForQuery = { table_name: 'events', schema: null, columns: [{ column_name: 'ts', type: 'BIGINT', is_dttm: true, python_date_format: 'epoch_ms' }], metrics: [{ metric_name: 'count', expression: 'COUNT(*)' }] };
    const q = normaliseQueryObject({ columns: [{ label: 'ts', sqlExpression: 'ts', columnType: 'BASE_AXIS', timeGrain: 'P1D' }], metrics: ['count'], row_limit: 10 }, { now });
    const select = (uri: string) => buildQuerySql(q, epochs, dialectFor(uri), { now }).sql.split('\n')[0];
    expect(select('postgresql://u@h/db')).toBe(`SELECT DATE_TRUNC('day', (timestamp 'epoch' + ("ts"/1000) * interval '1 second')) AS "ts", COUNT(*) AS "count"`);
    expect(select('mysql://root@h/db')).toBe('SELECT DATE(from_unixtime((`ts`/1000))) AS `ts`, COUNT(*) AS `count`');
    expect(select('duckdb:////tmp/x.duckdb')).toBe(`SELECT DATE_TRUNC('day', epoch_ms(CAST(CAST(("ts"/1000) AS DOUBLE) * 1000 AS BIGINT))) AS "ts", COUNT(*) AS "count"`);
    expect(select('sqlite:////tmp/x.db')).toBe(`SELECT DATETIME(datetime(("ts"/1000), 'unixepoch'), 'start of day') AS "ts", COUNT(*) AS "count"`);
  });
  it('long labels are shortened for PostgreSQL and mapped back', () => {
    const label = 'a very long metric label that goes on and on past the sixty-three byte limit';
    const built = buildQuerySql(normaliseQueryObject({ metrics: [{ expressionType: 'SQL', sqlExpression: 'COUNT(*)', label }] }, { now }), births, dialectFor('postgresql://u@h/db'), { now });
    const [alias] = Object.keys(built.aliasToLabel);
    expect(new TextEncoder().encode(alias).length).toBeLessThanOrEqual(63);
    expect(built.aliasToLabel[alias]).toBe(label);
    expect(built.sql).toContain(`AS "${alias}"`);
  });
});
