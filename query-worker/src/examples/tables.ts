// Metadata for the example tables, for registering them as datasets (Superset-style
// main datetime column and default metrics).

import { BIRTH_NAMES_COLUMNS } from './birthNames';
import type { ExampleColumn } from './model';
import { SALES_COLUMNS, SALES_TABLE } from './sales';
import { WB_COLUMNS } from './worldBank';

export interface ExampleMetric {
  /** Superset-style metric name, e.g. `sum__num`. */
  metricName: string;
  /** SQL expression valid in DuckDB and PostgreSQL (identifiers quoted where case matters). */
  expression: string;
  verboseName?: string;
  d3format?: string;
}

export interface ExampleTableInfo {
  name: string;
  description: string;
  /** Main datetime column (Superset `main_dttm_col`), or null when the table has none. */
  mainDttmCol: string | null;
  columns: ExampleColumn[];
  metrics: ExampleMetric[];
}

const COUNT: ExampleMetric = { metricName: 'count', expression: 'COUNT(*)', verboseName: 'COUNT(*)' };

export const EXAMPLE_TABLES: readonly ExampleTableInfo[] = [
  {
    name: 'birth_names',
    description:
      'US baby names by year (1965–2008), state (10 largest states plus "other") and gender. Synthetic data shaped like the SSA baby-names data used by Superset\'s birth_names example.',
    mainDttmCol: 'ds',
    columns: [...BIRTH_NAMES_COLUMNS],
    metrics: [
      COUNT,
      { metricName: 'sum__num', expression: 'SUM(num)', verboseName: 'Births' },
      { metricName: 'sum__num_boys', expression: 'SUM(num_boys)', verboseName: 'Boys' },
      { metricName: 'sum__num_girls', expression: 'SUM(num_girls)', verboseName: 'Girls' },
    ],
  },
  {
    name: 'wb_health_population',
    description:
      'World Bank style health & population indicators per country and year (1960–2014): population, rural/urban share, life expectancy, fertility, under-5 mortality, ages 65+, GNI per capita. ' +
      'About 215 countries with their World Bank region, plus aggregate rows (World, regions, income groups) whose region is "Aggregates". Synthetic, smooth trends.',
    mainDttmCol: 'year',
    columns: WB_COLUMNS,
    metrics: [
      COUNT,
      { metricName: 'sum__SP_POP_TOTL', expression: 'SUM("SP_POP_TOTL")', verboseName: 'Population' },
      { metricName: 'sum__SH_DYN_AIDS', expression: 'SUM("SH_DYN_AIDS")' },
      { metricName: 'sum__SP_RUR_TOTL_ZS', expression: 'SUM("SP_RUR_TOTL_ZS")' },
      { metricName: 'sum__SP_DYN_LE00_IN', expression: 'SUM("SP_DYN_LE00_IN")' },
      { metricName: 'sum__SP_RUR_TOTL', expression: 'SUM("SP_RUR_TOTL")' },
      { metricName: 'avg__SP_DYN_LE00_IN', expression: 'AVG("SP_DYN_LE00_IN")', verboseName: 'Life expectancy (avg)', d3format: '.1f' },
      { metricName: 'avg__SP_DYN_TFRT_IN', expression: 'AVG("SP_DYN_TFRT_IN")', verboseName: 'Fertility rate (avg)', d3format: '.2f' },
    ],
  },
  {
    name: SALES_TABLE,
    description:
      'Sales order lines of a scale-model vehicle company, 2003–2005 (1,000,000 rows by default): order number/date/status, product line, deal size, customer country and city, quantity, unit price and sales. Synthetic, for performance work.',
    mainDttmCol: 'order_date',
    columns: SALES_COLUMNS,
    metrics: [
      COUNT,
      { metricName: 'sum__sales', expression: 'SUM(sales)', verboseName: 'Sales', d3format: '$,.2f' },
      { metricName: 'sum__quantity', expression: 'SUM(quantity)', verboseName: 'Items' },
      { metricName: 'avg__price', expression: 'AVG(price)', verboseName: 'Average price', d3format: '$,.2f' },
      { metricName: 'count_distinct__order_number', expression: 'COUNT(DISTINCT order_number)', verboseName: 'Orders' },
    ],
  },
  {
    name: 'big_ids',
    description: 'BIGINT ids around and beyond 2^53 (JavaScript\'s safe-integer limit) up to the BIGINT extremes, with labels: checks that large integers are never rounded.',
    mainDttmCol: null,
    columns: [
      { name: 'id', type: 'BIGINT' },
      { name: 'label', type: 'VARCHAR' },
    ],
    metrics: [COUNT, { metricName: 'max__id', expression: 'MAX(id)' }, { metricName: 'min__id', expression: 'MIN(id)' }],
  },
];
