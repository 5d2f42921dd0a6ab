// cleaned_sales_data: a large, deterministic sales fact table (default 1,000,000 rows, 2003–2005)
// for performance work. Generated entirely inside the database with one INSERT … SELECT over a
// row-number series, so it takes seconds. The pseudo-random numbers come from pure integer
// arithmetic (a quadratic hash modulo the Mersenne prime 2^31 − 1, applied twice) that evaluates
// identically in DuckDB and PostgreSQL, so both engines produce bit-identical rows.
//
// Shape: orders of 4 lines each; an order has a date (seasonal, November peak), a customer city
// and a status; each line has a product line, a unit price (per-line price range) and a quantity.
// sales = quantity × price exactly (computed in integer cents), deal_size from sales like Superset
// (Small < 3,000 ≤ Medium < 7,000 ≤ Large).

import { type ExampleColumn, mulberry32 } from './model';

export type SqlDialect = 'duckdb' | 'postgres';

export const SALES_TABLE = 'cleaned_sales_data';
export const DEFAULT_SALES_ROWS = 1_000_000;
export const SALES_LINES_PER_ORDER = 4;

export const SALES_COLUMNS: ExampleColumn[] = [
  { name: 'order_number', type: 'BIGINT' },
  { name: 'order_date', type: 'TIMESTAMP' },
  { name: 'status', type: 'VARCHAR' },
  { name: 'product_line', type: 'VARCHAR' },
  { name: 'deal_size', type: 'VARCHAR' },
  { name: 'country', type: 'VARCHAR' },
  { name: 'city', type: 'VARCHAR' },
  { name: 'quantity', type: 'BIGINT' },
  { name: 'price', type: 'DOUBLE' },
  { name: 'sales', type: 'DOUBLE' },
];

/** [country, share weight, cities (the first is the main market)] — the markets of Superset's sample data. */
const MARKETS: readonly (readonly [string, number, readonly string[]])[] = [
  ['USA', 36, ['San Rafael', 'NYC', 'San Francisco', 'Boston', 'Philadelphia', 'New Haven', 'Los Angeles', 'San Jose', 'Allentown', 'Burlingame', 'Cambridge', 'Brickhaven', 'Nashua', 'Las Vegas', 'Glendale', 'Bridgewater', 'White Plains', 'Pasadena', 'Burbank', 'Newark', 'Glen Cove']],
  ['Spain', 12, ['Madrid', 'Barcelona']],
  ['France', 11, ['Paris', 'Nantes', 'Lyon', 'Marseille', 'Reims', 'Toulouse', 'Strasbourg', 'Versailles', 'Lille']],
  ['Australia', 6, ['Melbourne', 'Sydney', 'North Sydney', 'Chatswood', 'Glen Waverly', 'South Brisbane']],
  ['UK', 5, ['London', 'Manchester', 'Liverpool', 'Cowes']],
  ['Italy', 4, ['Reggio Emilia', 'Bergamo', 'Torino']],
  ['Finland', 3.3, ['Helsinki', 'Espoo', 'Oulu']],
  ['Norway', 3, ['Oslo', 'Stavern', 'Bergen']],
  ['Singapore', 2.8, ['Singapore']],
  ['Canada', 2.5, ['Montreal', 'Vancouver', 'Tsawassen']],
  ['Denmark', 2.2, ['Kobenhavn', 'Aarhus']],
  ['Germany', 2.2, ['Frankfurt', 'Koln', 'Munich']],
  ['Sweden', 2, ['Boras', 'Lulea']],
  ['Austria', 2, ['Salzburg', 'Graz']],
  ['Japan', 1.8, ['Tokyo', 'Osaka']],
  ['Belgium', 1.2, ['Bruxelles', 'Charleroi']],
  ['Switzerland', 1, ['Geneva']],
  ['Philippines', 1, ['Makati City']],
  ['Ireland', 0.6, ['Dublin']],
];

/** [product line, share ‰, unit price range in cents] */
const PRODUCT_LINES: readonly (readonly [string, number, number, number])[] = [
  ['Classic Cars', 340, 3500, 21400],
  ['Vintage Cars', 210, 2800, 17000],
  ['Motorcycles', 120, 3300, 19300],
  ['Planes', 110, 2900, 15800],
  ['Trucks and Buses', 110, 3200, 13700],
  ['Ships', 80, 3300, 12200],
  ['Trains', 30, 3700, 10100],
];

/** Order month weights (%), November peak like the original data. */
const MONTH_WEIGHTS = [7, 6, 7, 7, 7, 6, 7, 8, 9, 10, 16, 10];

const PRIME = 2147483647; // 2^31 − 1

/** Hash constants, drawn once from a fixed seed (same SQL text every run). */
const HASH_CONSTANTS: number[][] = (() => {
  const rand = mulberry32(0x5a1e5);
  const out: number[][] = [];
  for (let k = 0; k < 32; k++) out.push([0, 1, 2, 3].map(() => 1 + Math.floor(rand() * (PRIME - 2))));
  return out;
})();

/** ((x·a + b) mod p)·((x·c + d) mod p) mod p — all intermediates < 2^63 for 0 ≤ x < 2^31. */
function quad(x: string, [a, b, c, d]: number[]): string {
  return `(((((${x}) * ${a} + ${b}) % ${PRIME}) * (((${x}) * ${c} + ${d}) % ${PRIME})) % ${PRIME})`;
}

/** Pseudo-random integer in [0, 2^31 − 1) from a non-negative integer expression and a salt. */
function rnd(x: string, salt: number): string {
  return quad(quad(x, HASH_CONSTANTS[2 * salt]), HASH_CONSTANTS[2 * salt + 1]);
}

/** CASE expression picking an index by cumulative integer thresholds on `u`. */
function pickByWeights(u: string, weights: number[], total: number): string {
  const sum = weights.reduce((a, b) => a + b, 0);
  let acc = 0;
  const branches: string[] = [];
  weights.forEach((w, idx) => {
    acc += w;
    if (idx < weights.length - 1) branches.push(`WHEN ${u} < ${Math.round((acc / sum) * total)} THEN ${idx}`);
  });
  return `CASE ${branches.join(' ')} ELSE ${weights.length - 1} END`;
}

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** Flattened (country, city) list with integer weights. */
function cityTable(): { country: string; city: string; weight: number }[] {
  const out: { country: string; city: string; weight: number }[] = [];
  for (const [country, share, cities] of MARKETS) {
    // The first city carries 3 parts, the rest 1 part each.
    const parts = cities.length + 2;
    cities.forEach((city, i) => out.push({ country, city, weight: (share * (i === 0 ? 3 : 1)) / parts }));
  }
  return out;
}

/**
 * SELECT producing the sales rows (columns in SALES_COLUMNS order, sorted by order_number, line).
 * Valid in both DuckDB and PostgreSQL given the dialect.
 */
export function salesSelectSql(dialect: SqlDialect, rows: number): string {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`invalid sales row count: ${rows}`);
  const nOrders = Math.ceil(rows / SALES_LINES_PER_ORDER);
  const series = (n: number, col: string) =>
    dialect === 'duckdb' ? `range(0, ${n}) AS t(${col})` : `generate_series(0::bigint, ${n - 1}::bigint) AS t(${col})`;
  const idiv = dialect === 'duckdb' ? '//' : '/';
  const mat = dialect === 'postgres' ? 'MATERIALIZED ' : '';
  const cities = cityTable();
  const cityValues = cities.map((c, i) => `(${i}, ${sqlString(c.country)}, ${sqlString(c.city)})`).join(', ');

  const plCase = (pick: (p: (typeof PRODUCT_LINES)[number]) => string) =>
    `CASE pl ${PRODUCT_LINES.map((p, i) => `WHEN ${i} THEN ${pick(p)}`).join(' ')} END`;

  return `
WITH
ord_r AS ${mat}(
  SELECT o,
    ${rnd('o', 0)} % 1000 AS u_year,
    ${rnd('o', 1)} % 1000 AS u_month,
    ${rnd('o', 2)} AS u_day,
    ${rnd('o', 3)} % 10000 AS u_city,
    ${rnd('o', 4)} % 1000 AS u_status
  FROM ${series(nOrders, 'o')}
),
ord_ym AS ${mat}(
  SELECT o, u_day, u_city, u_status,
    2003 + ${pickByWeights('u_year', [32, 43, 25], 1000)} AS y,
    1 + ${pickByWeights('u_month', MONTH_WEIGHTS, 1000)} AS m
  FROM ord_r
),
ord_d AS ${mat}(
  SELECT o, u_city, u_status,
    make_date(y::int, m::int, (1 + u_day % (CASE WHEN m = 2 THEN (CASE WHEN y = 2004 THEN 29 ELSE 28 END) WHEN m IN (4, 6, 9, 11) THEN 30 ELSE 31 END))::int)::timestamp AS order_date
  FROM ord_ym
),
ord AS ${mat}(
  SELECT o, order_date,
    ${pickByWeights('u_city', cities.map((c) => c.weight), 10000)} AS city_idx,
    CASE WHEN order_date >= TIMESTAMP '2005-11-15 00:00:00' THEN
      (CASE WHEN u_status < 350 THEN 'In Process' WHEN u_status < 450 THEN 'On Hold' ELSE 'Shipped' END)
    ELSE
      (CASE WHEN u_status < 940 THEN 'Shipped' WHEN u_status < 962 THEN 'Cancelled' WHEN u_status < 977 THEN 'Resolved'
            WHEN u_status < 989 THEN 'On Hold' ELSE 'Disputed' END)
    END AS status,
    10099 + row_number() OVER (ORDER BY order_date, o) AS order_number
  FROM ord_d
),
line_r AS ${mat}(
  SELECT i, i ${idiv} ${SALES_LINES_PER_ORDER} AS o, i % ${SALES_LINES_PER_ORDER} AS line,
    ${rnd('i', 5)} % 1000 AS u_pl,
    ${rnd('i', 6)} AS u_price,
    ${rnd('i', 7)} % 1000 AS u_qty,
    ${rnd('i', 8)} AS u_qty2
  FROM ${series(rows, 'i')}
),
line_p AS ${mat}(
  SELECT i, o, line, u_price, u_qty, u_qty2,
    ${pickByWeights('u_pl', PRODUCT_LINES.map((p) => p[1]), 1000)} AS pl
  FROM line_r
),
line_v AS ${mat}(
  SELECT o, line,
    ${plCase((p) => sqlString(p[0]))} AS product_line,
    ${plCase((p) => String(p[2]))} + u_price % (${plCase((p) => String(p[3] - p[2] + 1))}) AS price_cents,
    CASE WHEN u_qty < 20 THEN 6 + u_qty2 % 14 WHEN u_qty < 70 THEN 50 + u_qty2 % 48 ELSE 20 + u_qty2 % 31 END AS quantity
  FROM line_p
),
cities(city_idx, country, city) AS (VALUES ${cityValues})
SELECT
  ord.order_number,
  ord.order_date,
  ord.status,
  line_v.product_line,
  CASE WHEN line_v.quantity * line_v.price_cents < 300000 THEN 'Small'
       WHEN line_v.quantity * line_v.price_cents < 700000 THEN 'Medium' ELSE 'Large' END AS deal_size,
  cities.country,
  cities.city,
  line_v.quantity,
  line_v.price_cents::float8 / 100 AS price,
  (line_v.quantity * line_v.price_cents)::float8 / 100 AS sales
FROM line_v
JOIN ord ON ord.o = line_v.o
JOIN cities ON cities.city_idx = ord.city_idx
ORDER BY ord.order_number, line_v.line`;
}
