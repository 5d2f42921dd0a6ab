import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { FormData, QueryContext } from '../../types';
import { activeComparison, advancedPostProcessing } from './advanced-analytics';

/**
 * The time-series query: the x-axis as base axis, with Superset's normalizeOrderBy: without an explicit
 * order the rows are ordered by the series limit metric, else the first metric (descending unless
 * order_desc is off), so a row limit keeps the largest rows and a categorical x-axis reads largest first.
 * Time shifts are queried only while a comparison is in force, and advanced analytics add their post-processing.
 */
export function buildTimeseriesQuery(formData: FormData): QueryContext {
  const context = queryContextFromFormData(formData);
  const query = context.queries[0] as { orderby?: unknown[]; metrics?: unknown[]; time_offsets?: unknown[]; post_processing?: unknown[] };
  if (!query.orderby?.length && query.metrics?.length) {
    query.orderby = [[formData.timeseries_limit_metric ?? query.metrics[0], formData.order_desc === false]];
  }
  query.time_offsets = activeComparison(formData) ? query.time_offsets : [];
  query.post_processing = advancedPostProcessing(formData);
  return { ...context, result_format: 'json', result_type: 'full' } as QueryContext;
}
