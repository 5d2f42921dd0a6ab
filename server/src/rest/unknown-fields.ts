import type { ZodType } from 'zod';
import type { FieldErrors } from '../errors/domain-errors';

/** marshmallow's message for a body field its schema does not declare (`unknown = RAISE`, its default). */
export const UNKNOWN_FIELD = 'Unknown field.';

/** The parts of a zod 4 schema's definition this walk reads. */
interface Def {
  type: string;
  shape?: Record<string, ZodType>;
  catchall?: ZodType;
  innerType?: ZodType;
  element?: ZodType;
  options?: ZodType[];
  in?: ZodType;
  out?: ZodType;
  left?: ZodType;
  right?: ZodType;
  valueType?: ZodType;
  getter?: () => ZodType;
}

const defOf = (schema: ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Wrappers that take the same input as the schema they wrap. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional', 'success']);

/** The schema that reads a value's keys: wrappers, lazies and a pipe's input side peeled off. */
function base(schema: ZodType): ZodType {
  let s = schema;
  for (let i = 0; i < 50; i++) {
    const def = defOf(s);
    if (WRAPPERS.has(def.type) && def.innerType) s = def.innerType;
    else if (def.type === 'lazy' && def.getter) s = def.getter();
    // A preprocess (transform, then schema) shapes the value before the schema sees it: the schema's keys count.
    else if (def.type === 'pipe' && def.in && def.out) s = defOf(def.in).type === 'transform' ? def.out : def.in;
    else break;
  }
  return s;
}

/** Whether a schema takes an object with any keys (a record, `z.unknown()`, a passthrough object...). */
function takesAnyKeys(schema: ZodType): boolean {
  const def = defOf(base(schema));
  if (['record', 'unknown', 'any', 'custom', 'transform'].includes(def.type)) return true;
  if (def.type === 'object') return !!def.catchall && defOf(def.catchall).type !== 'never';
  return false;
}

function walk(schema: ZodType, value: unknown, path: string, out: Record<string, string[]>): void {
  const s = base(schema);
  const def = defOf(s);
  const at = (key: string) => (path ? `${path}.${key}` : key);
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(value)) return;
      const shape = def.shape ?? {};
      for (const [key, v] of Object.entries(value)) {
        const field = shape[key];
        if (field) walk(field, v, at(key), out);
        else if (!def.catchall) (out[at(key)] ??= []).push(UNKNOWN_FIELD);
        else if (defOf(def.catchall).type === 'never') (out[at(key)] ??= []).push(UNKNOWN_FIELD);
        else walk(def.catchall, v, at(key), out);
      }
      return;
    }
    case 'array':
      if (Array.isArray(value) && def.element) value.forEach((item, i) => walk(def.element!, item, at(String(i)), out));
      return;
    case 'record':
      if (isPlainObject(value) && def.valueType) for (const [key, v] of Object.entries(value)) walk(def.valueType, v, at(key), out);
      return;
    case 'intersection': {
      // Keys either side knows are known: a key is unknown only when both sides call it so.
      const left: Record<string, string[]> = {};
      const right: Record<string, string[]> = {};
      if (def.left) walk(def.left, value, path, left);
      if (def.right) walk(def.right, value, path, right);
      for (const key of Object.keys(left)) if (key in right) out[key] = left[key]!;
      return;
    }
    case 'union': {
      // The branch the value is nearest to: an object is judged by the object branches (any-keys ones accept it).
      const fits = (def.options ?? []).filter((o) => {
        const t = defOf(base(o)).type;
        return isPlainObject(value) ? ['object', 'record', 'intersection', 'union', 'unknown', 'any', 'custom', 'transform'].includes(t) : Array.isArray(value) ? ['array', 'union', 'unknown', 'any'].includes(t) : false;
      });
      if (!fits.length || fits.some((o) => isPlainObject(value) && takesAnyKeys(o))) return;
      let best: Record<string, string[]> | null = null;
      for (const option of fits) {
        const found: Record<string, string[]> = {};
        walk(option, value, path, found);
        if (!best || Object.keys(found).length < Object.keys(best).length) best = found;
      }
      Object.assign(out, best);
      return;
    }
    default:
      return;
  }
}

/**
 * The fields of a request body that its zod schema does not declare, as marshmallow names them:
 * `{ "<field>": ["Unknown field."] }`, nested ones by their dotted path (`columns.0.type_generic`), as the
 * door's other field errors are. A passthrough object, a record or `z.unknown()` takes any keys; zod itself
 * strips undeclared keys silently, which Superset's schemas (`unknown = RAISE`) never do.
 *
 * @example unknownFields(z.object({ name: z.string() }), { name: 'a', nmae: 'b' }) // { nmae: ['Unknown field.'] }
 */
export function unknownFields(schema: ZodType, body: unknown): FieldErrors {
  const out: Record<string, string[]> = {};
  walk(schema, body, '', out);
  return out;
}
