// Meridian's examples data: deterministic generators (no downloads, seeded PRNG / integer hashes)
// for tables mirroring Superset's example datasets, loadable into DuckDB and PostgreSQL.

export { buildExamplesDuckDb } from './duckdb';
export { loadExamplesPostgres, type LoadExamplesPostgresOptions } from './postgres';
export { EXAMPLE_TABLES, type ExampleMetric, type ExampleTableInfo } from './tables';
export type { BuildExamplesOptions, ExampleColumn, ExampleColumnType, ExamplesBuildResult, GeneratedTable } from './model';
export { generateBirthNames } from './birthNames';
export { generateWorldBank, WB_COUNTRIES, WB_REGIONS } from './worldBank';
export { generateBigIds, BIG_IDS } from './bigIds';
export { DEFAULT_SALES_ROWS, SALES_TABLE, salesSelectSql, type SqlDialect } from './sales';
