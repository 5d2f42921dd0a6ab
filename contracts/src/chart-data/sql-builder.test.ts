import { describe, expect, it } from 'vitest';
import { normaliseQueryObject } from './query-object';
import { buildQuerySql, type DatasetForQuery, type QueryDialect, quoteString, valueLiteral } from './sql-builder';
import { validateSqlExpression } from './sql-expression';

const now = new Date('2024-03-15T10:30:00Z');
// A Postgres-like dialect with two grains; per-engine SQL is pinned in server/src/chart-data with the real engine specs.
const pg: QueryDialect = {
  backend: 'postgresql',
  quote: (name) => `"${name.replaceAll('"', '""')}"`,
  timeGrain: (grain, col) => {
    const unit = { P1D: 'day', P1M: 'month' }[grain];
    if (!unit) throw new Error(`No grain spec for ${grain} for database PostgreSQL`);
    return `DATE_TRUNC('${unit}', ${col})`;
  },
  epochToDttm: (format, col) => `(timestamp 'epoch' + ${format === 'epoch_ms' ? `(${col}/1000)` : col} * interval '1 second')`,
  maxAliasLength: 63,
};
const births: DatasetForQuery = {
  table_name: 'birth_names',
  schema: 'public',
  columns: [
    { column_name: 'ds', type: 'TIMESTAMP', is_dttm: true },
    { column_name: 'gender', type: 'VARCHAR' },
    { column_name: 'name', type: 'VARCHAR' },
    { column_name: 'num', type: 'BIGINT' },
    { column_name: 'num_x2', type: 'BIGINT', expression: 'num * 2' },
  ],
  metrics: [{ metric_name: 'sum__num', expression: 'SUM(num)' }],
};
const build = (raw: Record<string, unknown>, opts: { allowAdhocSubquery?: boolean } = {}) =>
  buildQuerySql(normaliseQueryObject(raw, { now }), births, pg, { now, ...opts });

describe('buildQuerySql', () => {
  it('groups by columns, aggregates saved and adhoc metrics, orders by the first metric', () => {
    const { sql, labels } = build({
      columns: ['gender'],
      metrics: ['sum__num', { expressionType: 'SIMPLE', column: { column_name: 'num' }, aggregate: 'COUNT_DISTINCT' }],
      row_limit: 10,
    });
    expect(sql).toBe(
      'SELECT "gender" AS "gender", SUM(num) AS "sum__num", COUNT(DISTINCT "num") AS "COUNT_DISTINCT(num)"\n' +
        'FROM "public"."birth_names"\nGROUP BY "gender"\nORDER BY SUM(num) DESC\nLIMIT 10',
    );
    expect(labels).toEqual(['gender', 'sum__num', 'COUNT_DISTINCT(num)']);
  });

  it("filters a time range without a granularity on the dataset's main datetime column, unless a TEMPORAL_RANGE filter names the column", () => {
    const withMain = { ...births, main_dttm_col: 'ds' };
    const q = (raw: Record<string, unknown>, dataset: DatasetForQuery) => buildQuerySql(normaliseQueryObject(raw, { now }), dataset, pg, { now }).sql;
    expect(q({ columns: ['gender'], metrics: ['sum__num'], time_range: '2000-01-01 : 2009-01-01' }, withMain)).toContain(
      `WHERE "ds" >= TIMESTAMP '2000-01-01 00:00:00' AND "ds" < TIMESTAMP '2009-01-01 00:00:00'`,
    );
    expect(q({ columns: ['gender'], metrics: ['sum__num'], time_range: 'No filter' }, withMain)).not.toContain('WHERE');
    expect(q({ columns: ['gender'], metrics: ['sum__num'], time_range: '2000-01-01 : 2009-01-01' }, births)).not.toContain('WHERE');
    const temporal = q({ columns: ['gender'], metrics: ['sum__num'], time_range: '2000-01-01 : 2009-01-01', filters: [{ col: 'ds', op: 'TEMPORAL_RANGE', val: '2001-01-01 : 2002-01-01' }] }, withMain);
    expect(temporal.match(/"ds" >=/g)).toHaveLength(1);
  });

  it('applies the time grain to the x-axis and the time range to the granularity column', () => {
    const { sql } = build({
      columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: 'P1M' }],
      metrics: [{ expressionType: 'SQL', sqlExpression: 'SUM(num) / 2', label: 'half' }],
      granularity: 'ds',
      time_range: '2020-01-01 : 2021-01-01',
      orderby: [[{ expressionType: 'SQL', sqlExpression: 'SUM(num) / 2', label: 'half' }, false]],
    });
    expect(sql).toBe(
      `SELECT DATE_TRUNC('month', "ds") AS "ds", (SUM(num) / 2\n) AS "half"\nFROM "public"."birth_names"\n` +
        `WHERE "ds" >= TIMESTAMP '2020-01-01 00:00:00' AND "ds" < TIMESTAMP '2021-01-01 00:00:00'\n` +
        `GROUP BY DATE_TRUNC('month', "ds")\nORDER BY (SUM(num) / 2\n) DESC`,
    );
  });

  it('renders every filter operator with quoted values', () => {
    const op = (o: string, val?: unknown, col = 'name') => build({ columns: ['name'], filters: [{ col, op: o, val }] }).sql.split('\nWHERE ')[1];
    expect(op('==', "O'Brien")).toBe(`"name" = 'O''Brien'`);
    expect(op('!=', 'a')).toBe(`"name" != 'a'`);
    expect(op('>', 5, 'num')).toBe(`"num" > 5`);
    expect(op('<', '5', 'num')).toBe(`"num" < 5`);
    expect(op('>=', 1.5, 'num')).toBe(`"num" >= 1.5`);
    expect(op('<=', 7, 'num')).toBe(`"num" <= 7`);
    expect(op('IN', ['a', 'b'])).toBe(`"name" IN ('a', 'b')`);
    expect(op('IN', ['a', null])).toBe(`("name" IN ('a') OR "name" IS NULL)`);
    expect(op('NOT IN', ['a'])).toBe(`"name" NOT IN ('a')`);
    expect(op('LIKE', 'A%')).toBe(`"name" LIKE 'A%'`);
    expect(op('ILIKE', 'a%')).toBe(`"name" ILIKE 'a%'`);
    expect(op('IS NULL')).toBe(`"name" IS NULL`);
    expect(op('IS NOT NULL')).toBe(`"name" IS NOT NULL`);
    expect(op('IS TRUE', undefined, 'num')).toBe(`"num" IS TRUE`);
    expect(op('IS FALSE', undefined, 'num')).toBe(`"num" IS FALSE`);
    expect(op('TEMPORAL_RANGE', 'Last year', 'ds')).toBe(`"ds" >= TIMESTAMP '2023-03-15 00:00:00' AND "ds" < TIMESTAMP '2024-03-15 00:00:00'`);
    expect(op('==', 1704067200000, 'ds')).toBe(`"ds" = TIMESTAMP '2024-01-01 00:00:00'`);
  });

  it('adhoc filters become WHERE and HAVING (spec 01 §3 adhoc filter: SIMPLE or SQL, WHERE or HAVING)', () => {
    const { sql } = build({
      columns: ['gender'],
      metrics: ['sum__num'],
      adhoc_filters: [
        { expressionType: 'SIMPLE', clause: 'WHERE', subject: 'name', operator: 'IN', comparator: ['Amy'] },
        { expressionType: 'SQL', clause: 'WHERE', sqlExpression: "gender = 'girl'" },
        { expressionType: 'SQL', clause: 'HAVING', sqlExpression: 'SUM(num) > 10' },
        { expressionType: 'SIMPLE', clause: 'HAVING', subject: 'sum__num', operator: '>', comparator: 5 },
      ],
    });
    expect(sql).toContain(`WHERE "name" IN ('Amy') AND (gender = 'girl'\n)`);
    expect(sql).toContain(`HAVING SUM(num) > 5 AND (SUM(num) > 10\n)`);
  });

  it('limits series through a joined subquery ordered by the series limit metric', () => {
    const { sql } = build({
      columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: 'P1D' }, 'name'],
      metrics: ['sum__num'],
      series_columns: ['name'],
      series_limit: 5,
      series_limit_metric: { expressionType: 'SIMPLE', column: { column_name: 'num' }, aggregate: 'MAX' },
      filters: [{ col: 'gender', op: '==', val: 'girl' }],
      is_timeseries: true,
    });
    expect(sql).toBe(
      `SELECT DATE_TRUNC('day', "ds") AS "ds", "name" AS "name", SUM(num) AS "sum__num"\nFROM "public"."birth_names"\n` +
        `JOIN (SELECT "name" AS "name__", MAX("num") AS "mme_inner__"\nFROM "public"."birth_names"\nWHERE "gender" = 'girl'\nGROUP BY "name"\nORDER BY "mme_inner__" DESC\nLIMIT 5) AS "series_limit" ON "name" = "series_limit"."name__"\n` +
        `WHERE "gender" = 'girl'\nGROUP BY DATE_TRUNC('day', "ds"), "name"`,
    );
  });

  it('raw mode (no metrics) selects columns without GROUP BY, with offset; calculated columns use their expression', () => {
    expect(build({ columns: ['name', 'num_x2'], row_limit: 5, row_offset: 10, orderby: [['num', true]] }).sql).toBe(
      'SELECT "name" AS "name", (num * 2) AS "num_x2"\nFROM "public"."birth_names"\nORDER BY "num" ASC\nLIMIT 5\nOFFSET 10',
    );
  });

  it('virtual datasets are a subquery; legacy time series select __timestamp', () => {
    const virtual = { ...births, sql: 'SELECT * FROM birth_names WHERE num > 0;' };
    const { sql } = buildQuerySql(normaliseQueryObject({ metrics: ['sum__num'], granularity: 'ds', is_timeseries: true, extras: { time_grain_sqla: 'P1D' } }, { now }), virtual, pg, { now });
    expect(sql).toBe(`SELECT DATE_TRUNC('day', "ds") AS "__timestamp", SUM(num) AS "sum__num"\nFROM (SELECT * FROM birth_names WHERE num > 0\n) AS virtual_table\nGROUP BY DATE_TRUNC('day', "ds")`);
  });

  it('refuses unknown columns and metrics; rejects filters on unknown columns', () => {
    expect(() => build({ columns: ['nope'], metrics: ['sum__num'] })).toThrow("Columns missing in dataset: ['nope']");
    expect(() => build({ columns: ['name'], metrics: ['nope'] })).toThrow("Metric 'nope' does not exist");
    const built = build({ columns: ['name'], filters: [{ col: 'name"; DROP TABLE x; --', op: '==', val: 1 }] });
    expect(built.sql).not.toContain('DROP');
    expect(built.rejectedFilterColumns).toEqual([{ column: 'name"; DROP TABLE x; --', reason: 'not_in_datasource' }]);
    expect(() => build({ columns: ['name'], orderby: [['name; DROP TABLE x', true]] })).toThrow('Invalid order by column or metric');
    expect(() => build({})).toThrow('Empty query?');
    expect(() => build({ columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: 'PT1H' }], metrics: ['sum__num'] })).toThrow('No grain spec for PT1H');
  });

  it('refuses subqueries and extra statements in ad hoc SQL, unless subqueries are allowed', () => {
    const sub = { columns: ['name'], extras: { where: 'num > (SELECT AVG(num) FROM birth_names)' } };
    expect(() => build(sub)).toThrow('Custom SQL fields cannot contain sub-queries.');
    expect(build(sub, { allowAdhocSubquery: true }).sql).toContain('(SELECT AVG(num) FROM birth_names)');
    expect(() => build({ columns: ['name'], extras: { where: '1=1; DROP TABLE birth_names' } })).toThrow('Custom SQL fields cannot contain multiple statements.');
    expect(() => build({ columns: ['name'], extras: { where: "1=1) UNION SELECT password FROM ab_user WHERE (1=1" } })).toThrow();
    expect(() => build({ metrics: [{ expressionType: 'SQL', sqlExpression: 'COUNT(*)) FROM ab_user --' }] })).toThrow('Unbalanced parentheses');
    // a trailing comment stays inside its parentheses
    expect(build({ columns: ['name'], extras: { where: '1=1 --' } }).sql).toContain('WHERE (1=1 --\n)');
  });
});

describe('literals', () => {
  it('quote strings per engine so a value is always one literal', () => {
    expect(quoteString("a'b", 'postgresql')).toBe(`'a''b'`);
    expect(quoteString('a\\', 'postgresql')).toBe(`E'a\\\\'`);
    expect(quoteString("a\\'; DROP", 'mysql')).toBe(`'a\\\\''; DROP'`);
    expect(quoteString("x'", 'duckdb')).toBe(`'x'''`);
    expect(() => quoteString('a\0', 'sqlite')).toThrow('NUL');
  });
  it('numbers, booleans and dates by column type', () => {
    expect(valueLiteral('12', 'postgresql', { column_name: 'n', type: 'INTEGER' })).toBe('12');
    expect(valueLiteral('12 OR 1=1', 'postgresql', { column_name: 'n', type: 'INTEGER' })).toBe(`'12 OR 1=1'`);
    expect(valueLiteral(true, 'sqlite')).toBe('1');
    expect(valueLiteral('2024-01-02', 'mysql', { column_name: 'd', type: 'DATE' })).toBe(`DATE '2024-01-02'`);
    expect(() => valueLiteral(Infinity, 'postgresql')).toThrow('Invalid filter value');
    expect(() => valueLiteral({ raw: 'SQL' }, 'postgresql')).toThrow('Invalid filter value');
  });
});

describe('validateSqlExpression', () => {
  it('accepts engine syntax the parser does not know', () => {
    expect(validateSqlExpression("list_aggregate(ARRAY[1,2], 'sum') > 1", 'where', { backend: 'duckdb' })).toBeTruthy();
    expect(validateSqlExpression("`name` LIKE 'a%'", 'where', { backend: 'mysql' })).toBeTruthy();
  });
  it('sees a select hidden in a string as text, not a subquery', () => {
    expect(validateSqlExpression("name = 'select'", 'where', { backend: 'postgresql' })).toBe("name = 'select'");
  });
});
