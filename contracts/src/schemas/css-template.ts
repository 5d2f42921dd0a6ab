import { z } from 'zod';

/** `POST /api/v1/css_template/` (Superset's CssTemplateRestApi add columns). */
export const CssTemplateCreateSchema = z.object({
  template_name: z.string().trim().min(1).max(250),
  css: z.string().nullish(),
});
export type CssTemplateCreate = z.infer<typeof CssTemplateCreateSchema>;

/** `PUT /api/v1/css_template/{pk}`: any of the create fields. */
export const CssTemplateUpdateSchema = CssTemplateCreateSchema.partial();
export type CssTemplateUpdate = z.infer<typeof CssTemplateUpdateSchema>;
