import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { FormData, QueryContext } from '../../types';

/** A time-series chart's query: the x-axis column (with its time grain), the group-bys and metrics, within the row limit. */
export function buildTimeseriesQuery(formData: FormData): QueryContext {
  const context = queryContextFromFormData(formData);
  return { ...context, result_format: 'json', result_type: 'full' } as QueryContext;
}
