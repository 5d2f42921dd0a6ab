// Shared building blocks for the example-data generators: a seeded PRNG and a
// small in-memory table model that both the DuckDB and PostgreSQL loaders consume.

/** Logical column types used by the examples; mapped to each engine's type name. */
export type ExampleColumnType = 'BIGINT' | 'DOUBLE' | 'VARCHAR' | 'TIMESTAMP';

export interface ExampleColumn {
  name: string;
  type: ExampleColumnType;
}

/**
 * A cell value. BIGINT: number (safe integer) or bigint; DOUBLE: number; VARCHAR: string;
 * TIMESTAMP: number = milliseconds since the Unix epoch (UTC, naive timestamp semantics).
 */
export type ExampleCell = string | number | bigint | null;

export interface GeneratedTable {
  name: string;
  columns: ExampleColumn[];
  rows: ExampleCell[][];
}

/** mulberry32: tiny, fast, deterministic 32-bit PRNG. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal variate from a uniform source (Box–Muller, one value per call). */
export function gaussian(rand: () => number): number {
  let u = 0;
  while (u === 0) u = rand();
  const v = rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Deterministic string hash (FNV-1a 32-bit), used to derive per-entity seeds. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Round to a number of decimals (half away from zero, deterministic in JS). */
export function roundTo(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}

/** Midnight of Jan 1 of `year`, as epoch milliseconds (UTC). */
export function yearStartMs(year: number): number {
  return Date.UTC(year, 0, 1);
}

export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** Smoothstep on [0, 1]. */
export function smoothstep(t: number): number {
  const x = clamp(t, 0, 1);
  return x * x * (3 - 2 * x);
}

export interface BuildExamplesOptions {
  /** Rows of the sales fact table (default 1,000,000). */
  salesRows?: number;
}

export interface ExamplesBuildResult {
  tables: { name: string; rows: number }[];
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
