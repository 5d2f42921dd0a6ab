import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChartDataRequestSchema } from '@meridian/contracts';
import { toRestError } from './to-rest';

// Superset answers a body its marshmallow schema refuses with 400 {"message": {<field>: [<message>]}}, in
// marshmallow's default words: fields.Integer "Not a valid integer.", fields.Dict "Not a valid mapping type.",
// required "Missing data for required field.", allow_none=False "Field may not be null.", validate.Length
// "Shorter than minimum length {min}." / "Longer than maximum length {max}.", validate.OneOf "Must be one of: {choices}.",
// validate.Range "Must be greater than or equal to {min}.".
describe('toRestError: zod issues in marshmallow words', () => {
  const schema = z.object({
    slice_name: z.string().min(1).max(250),
    cache_timeout: z.number().int().min(-1),
    published: z.boolean(),
    extra: z.record(z.string(), z.unknown()),
    owners: z.array(z.number()),
    datasource_type: z.enum(['table', 'query']),
    description: z.string(),
    custom: z.string().refine((v) => v !== 'x', 'JSON not valid'),
  });
  const messages = (body: unknown) => {
    const result = schema.safeParse(body);
    const { status, body: answer } = toRestError(result.error);
    expect(status).toBe(400);
    return (answer as { message: Record<string, string[]> }).message;
  };

  it('says what marshmallow says of a wrong type, a missing field and a null', () => {
    expect(messages({ slice_name: 1, cache_timeout: 1.5, published: 'yes', extra: '{}', owners: {}, datasource_type: 'view', description: null, custom: 'x' })).toEqual({
      slice_name: ['Not a valid string.'],
      cache_timeout: ['Not a valid integer.'],
      published: ['Not a valid boolean.'],
      extra: ['Not a valid mapping type.'],
      owners: ['Not a valid list.'],
      datasource_type: ['Must be one of: table, query.'],
      description: ['Field may not be null.'],
      custom: ['JSON not valid'],
    });
    expect(messages({})).toMatchObject({ slice_name: ['Missing data for required field.'], published: ['Missing data for required field.'] });
  });

  it('says the bounds as validate.Length and validate.Range do', () => {
    expect(messages({ slice_name: '', cache_timeout: -2 })).toMatchObject({ slice_name: ['Shorter than minimum length 1.'], cache_timeout: ['Must be greater than or equal to -1.'] });
    expect(messages({ slice_name: 'a'.repeat(251) })).toMatchObject({ slice_name: ['Longer than maximum length 250.'] });
  });

  it('names the field inside an adhoc metric that failed, and says what a metric is when the value is neither kind', () => {
    const refused = (metrics: unknown[]) => (toRestError(ChartDataRequestSchema.safeParse({ queries: [{ metrics }] }).error).body as { message: Record<string, string[]> }).message;
    expect(refused([{ expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: 123 }])).toEqual({ 'queries.0.metrics.0.label': ['Not a valid string.'] });
    expect(refused(['count', 123])).toEqual({ 'queries.0.metrics.1': ['Not a valid metric: a saved metric name or an adhoc metric.'] });
  });
});
