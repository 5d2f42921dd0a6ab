import { z } from 'zod';
import { isJsonText, JSON_NOT_VALID, jsonText } from './json-text';
import { DATASOURCE_TYPES } from '../rules/validators';

/** The chart save payload of spec 01 §3 (`POST /api/v1/chart/`). `params` and `query_context` are JSON text. */
export const ChartCreateSchema = z.object({
  slice_name: z.string().min(1).max(250),
  viz_type: z.string().max(250).nullish(),
  params: jsonText().nullish(),
  query_context: jsonText().nullish(),
  query_context_generation: z.boolean().nullish(),
  datasource_id: z.coerce.number().int(),
  datasource_type: z.enum(DATASOURCE_TYPES),
  datasource_name: z.string().nullish(),
  description: z.string().nullish(),
  cache_timeout: z.number().int().nullish(),
  owners: z.array(z.number().int()).optional(),
  dashboards: z.array(z.number().int()).optional(),
  certified_by: z.string().nullish(),
  certification_details: z.string().nullish(),
  is_managed_externally: z.boolean().nullish(),
  external_url: z.string().nullish(),
});
export type ChartCreate = z.infer<typeof ChartCreateSchema>;

/** `PUT /api/v1/chart/{pk}`: any field of the save payload. */
export const ChartUpdateSchema = ChartCreateSchema.partial().extend({ tags: z.array(z.number().int()).optional() });
export type ChartUpdate = z.infer<typeof ChartUpdateSchema>;

/** The parameters of Explore's bootstrap: `GET /api/v1/explore/`, its tRPC door and the Explore page's own data. */
export const ExploreBootstrapQuerySchema = z.object({
  slice_id: z.coerce.number().int().optional(),
  datasource_id: z.coerce.number().int().optional(),
  datasource_type: z.string().optional(),
  form_data_key: z.string().optional(),
  permalink_key: z.string().optional(),
});
export type ExploreBootstrapQuery = z.infer<typeof ExploreBootstrapQuerySchema>;

/** `POST /api/v1/explore/permalink`. */
export const ExplorePermalinkSchema = z.object({
  formData: z.record(z.string(), z.any()),
  urlParams: z.array(z.tuple([z.string(), z.string()])).optional(),
});
export type ExplorePermalinkInput = z.infer<typeof ExplorePermalinkSchema>;

/** `POST/PUT /api/v1/explore/form_data`. */
export const ExploreFormDataSchema = z.object({
  datasource_id: z.coerce.number().int(),
  datasource_type: z.string(),
  chart_id: z.coerce.number().int().nullish(),
  /** JSON text, as Explore stores and reads it back: text that does not parse is refused, not kept for a later open to fail on. */
  form_data: z.string().refine((text) => text.trim() !== '' && isJsonText(text), { message: JSON_NOT_VALID }),
});
export type ExploreFormDataInput = z.infer<typeof ExploreFormDataSchema>;
