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
    { column_name: 'is_twin', type: 'BOOLEAN' },
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

  describe('engine quirks, pinned per engine', () => {
    const uris = { postgresql: 'postgresql://u@h/db', mysql: 'mysql://root@h/db', duckdb: 'duckdb:////tmp/x.duckdb', sqlite: 'sqlite:////tmp/x.db' };
    const build = (raw: Record<string, unknown>) => Object.fromEntries(Object.entries(uris).map(([engine, uri]) => [engine, buildQuerySql(normaliseQueryObject(raw, { now }), births, dialectFor(uri), { now }).sql]));
    const where = (raw: Record<string, unknown>) => Object.fromEntries(Object.entries(build(raw)).map(([engine, sql]) => [engine, sql.split('\n').find((l) => l.startsWith('WHERE '))]));

    it('LIKE is case-sensitive everywhere (LIKE BINARY on MySQL, GLOB on SQLite); ILIKE ignores case everywhere', () => {
      expect(where({ columns: ['name'], filters: [{ col: 'name', op: 'LIKE', val: 'Jo%_*' }, { col: 'name', op: 'NOT ILIKE', val: '%an' }] })).toEqual({
        postgresql: `WHERE "name" LIKE 'Jo%_*' AND "name" NOT ILIKE '%an'`,
        mysql: "WHERE `name` LIKE BINARY 'Jo%_*' AND LOWER(`name`) NOT LIKE LOWER('%an')",
        duckdb: `WHERE "name" LIKE 'Jo%_*' AND "name" NOT ILIKE '%an'`,
        sqlite: `WHERE "name" GLOB 'Jo*?[*]' AND LOWER("name") NOT LIKE LOWER('%an')`,
      });
      expect(where({ columns: ['name'], filters: [{ col: 'name', op: 'NOT LIKE', val: '100\\%' }] }).sqlite).toBe(`WHERE "name" NOT GLOB '100%'`);
    });

    it('booleans compare with 1/0 on MySQL and SQLite, TRUE/FALSE elsewhere; IS TRUE / IS FALSE are kept', () => {
      expect(where({ columns: ['name'], filters: [{ col: 'is_twin', op: '==', val: true }, { col: 'is_twin', op: '!=', val: 'false' }, { col: 'is_twin', op: 'IS TRUE' }, { col: 'is_twin', op: 'IS FALSE' }] })).toEqual({
        postgresql: `WHERE "is_twin" = TRUE AND "is_twin" != FALSE AND "is_twin" IS TRUE AND "is_twin" IS FALSE`,
        mysql: 'WHERE `is_twin` = 1 AND `is_twin` != 0 AND `is_twin` IS TRUE AND `is_twin` IS FALSE',
        duckdb: `WHERE "is_twin" = TRUE AND "is_twin" != FALSE AND "is_twin" IS TRUE AND "is_twin" IS FALSE`,
        sqlite: `WHERE "is_twin" = 1 AND "is_twin" != 0 AND "is_twin" IS TRUE AND "is_twin" IS FALSE`,
      });
      // MySQL describes a BOOLEAN column as TINYINT(1): 'true' still means 1 there.
      const tinyint = { ...births, columns: births.columns.map((c) => (c.column_name === 'is_twin' ? { ...c, type: 'TINYINT(1)' } : c)) };
      const q = normaliseQueryObject({ columns: ['name'], filters: [{ col: 'is_twin', op: '!=', val: 'true' }] }, { now });
      expect(buildQuerySql(q, tinyint, dialectFor(uris.mysql), { now }).sql).toContain('WHERE `is_twin` != 1');
    });

    it('series limit: the top series by the metric through a joined subquery with its own alias', () => {
      const sql = build({ columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: 'P1Y' }, 'gender'], series_columns: ['gender'], series_limit: 1, metrics: ['sum__num'], filters: [{ col: 'num', op: '>', val: 0 }], row_limit: 100 });
      expect(sql.mysql).toBe(
        'SELECT DATE(DATE_SUB(`ds`, INTERVAL DAYOFYEAR(`ds`) - 1 DAY)) AS `ds`, `gender` AS `gender`, SUM(num) AS `sum__num`\nFROM `birth_names`\n' +
          'JOIN (SELECT `gender` AS `gender__`, SUM(num) AS `mme_inner__`\nFROM `birth_names`\nWHERE `num` > 0\nGROUP BY `gender`\nORDER BY `mme_inner__` DESC\nLIMIT 1) AS `series_limit` ON `gender` = `series_limit`.`gender__`\n' +
          'WHERE `num` > 0\nGROUP BY DATE(DATE_SUB(`ds`, INTERVAL DAYOFYEAR(`ds`) - 1 DAY)), `gender`\nLIMIT 100',
      );
      expect(sql.sqlite).toBe(
        `SELECT DATETIME("ds", 'start of year') AS "ds", "gender" AS "gender", SUM(num) AS "sum__num"\nFROM "birth_names"\n` +
          `JOIN (SELECT "gender" AS "gender__", SUM(num) AS "mme_inner__"\nFROM "birth_names"\nWHERE "num" > 0\nGROUP BY "gender"\nORDER BY "mme_inner__" DESC\nLIMIT 1) AS "series_limit" ON "gender" = "series_limit"."gender__"\n` +
          `WHERE "num" > 0\nGROUP BY DATETIME("ds", 'start of year'), "gender"\nLIMIT 100`,
      );
      expect(sql.postgresql).toContain(`JOIN (SELECT "gender" AS "gender__", SUM(num) AS "mme_inner__"\nFROM "birth_names"\nWHERE "num" > 0`);
    });

    it('OFFSET without LIMIT: MySQL and SQLite need a LIMIT, the largest they take', () => {
      const tail = (sql: string) => sql.split('\n').slice(2).join(' ');
      const sql = build({ columns: ['name'], row_offset: 20, row_limit: null });
      expect(Object.fromEntries(Object.entries(sql).map(([engine, text]) => [engine, tail(text)]))).toEqual({
        postgresql: 'OFFSET 20',
        mysql: 'LIMIT 18446744073709551615 OFFSET 20',
        duckdb: 'OFFSET 20',
        sqlite: 'LIMIT -1 OFFSET 20',
      });
      expect(tail(build({ columns: ['name'], row_offset: 20, row_limit: 5 }).sqlite)).toBe('LIMIT 5 OFFSET 20');
    });
  });
});
