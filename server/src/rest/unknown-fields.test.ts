import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { unknownFields } from './unknown-fields';

describe('unknownFields', () => {
  const Column = z.object({ column_name: z.string(), type: z.string().nullish() });
  const Body = z.object({ name: z.string(), columns: z.array(Column).optional(), extra: z.record(z.string(), z.unknown()).optional(), form: z.object({ a: z.number() }).passthrough().optional() });

  it('names a top-level field the schema does not declare with marshmallow\'s message', () => {
    expect(unknownFields(Body, { name: 'x', nmae: 'y' })).toEqual({ nmae: ['Unknown field.'] });
  });

  it('names a nested one by its path, and leaves records and passthrough objects alone', () => {
    expect(unknownFields(Body, { name: 'x', columns: [{ column_name: 'a' }, { column_name: 'b', type_generic: 1 }], extra: { any: 1 }, form: { a: 1, b: 2 } })).toEqual({ 'columns.1.type_generic': ['Unknown field.'] });
  });

  it('judges a union by the object branch the value is nearest to, and a refined or piped schema by its input', () => {
    const Either = z.union([z.string(), z.object({ a: z.string() }), z.object({ a: z.string(), b: z.string() })]);
    expect(unknownFields(z.object({ v: Either }), { v: { a: 'x', b: 'y' } })).toEqual({});
    expect(unknownFields(z.object({ v: Either }), { v: { a: 'x', c: 'y' } })).toEqual({ 'v.c': ['Unknown field.'] });
    const Refined = z.object({ a: z.string() }).superRefine(() => undefined);
    expect(unknownFields(Refined, { a: 'x', b: 1 })).toEqual({ b: ['Unknown field.'] });
    expect(unknownFields(z.preprocess((v) => v, z.object({ a: z.string() })), { b: 1 })).toEqual({ b: ['Unknown field.'] });
  });

  it('says nothing of a body that is not an object (the schema answers that)', () => {
    expect(unknownFields(Body, [1, 2])).toEqual({});
    expect(unknownFields(Body, null)).toEqual({});
  });
});
