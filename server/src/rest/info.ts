import { z } from 'zod';
import { hasPermission } from '@meridian/contracts/rules/permissions';
import type { Actor } from '../security/actor';

/** Flask-AppBuilder's names of the list filter operators, as Superset's `_info` answers them. */
const OPERATOR_NAMES: Record<string, string> = {
  eq: 'Equal to',
  neq: 'Not Equal to',
  sw: 'Starts with',
  ew: 'Ends with',
  ct: 'Contains',
  nct: 'Not Contains',
  gt: 'Greater than',
  lt: 'Smaller than',
  gte: 'Greater than or equal',
  lte: 'Smaller than or equal',
  in: 'One of',
  empty: 'Empty',
  not_empty: 'Not empty',
  rel_o_m: 'Relation',
  nrel_o_m: 'No Relation',
  rel_m_m: 'Relation as Many',
  nrel_m_m: 'No Relation as Many',
};

/** What one resource's `GET /api/v1/<resource>/_info` describes. */
export interface InfoSpec {
  /** The permission view name, e.g. 'Chart'. */
  view: string;
  /** Title words, e.g. 'Chart' gives 'Add Chart' / 'Edit Chart'. */
  title: string;
  add?: z.ZodObject;
  edit?: z.ZodObject;
  /** Filterable column: its operators, standard (`eq`) or the resource's own (`chart_all_text` with its name). */
  filters: Record<string, Array<string | { operator: string; name: string }>>;
  /** Permissions the resource checks; `_info` lists the caller's among them. */
  permissions: string[];
}

const label = (name: string) => name.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

/** A zod field's type in Marshmallow's words (String, Integer, Boolean, List, Raw...). */
function typeName(schema: z.ZodType): string {
  let s: any = schema;
  while (s?.def && ['optional', 'nullable', 'default', 'pipe', 'readonly'].includes(s.def.type)) s = s.def.innerType ?? s.def.in;
  switch (s?.def?.type) {
    case 'string': return 'String';
    case 'number': return s.format === 'safeint' || s.def.checks?.some((c: any) => c._zod?.def?.format === 'safeint') ? 'Integer' : 'Float';
    case 'int': return 'Integer';
    case 'boolean': return 'Boolean';
    case 'array': return 'List';
    case 'date': return 'DateTime';
    case 'enum': return 'String';
    default: return 'Raw';
  }
}

/** The columns of a create or update schema as `_info`'s add_columns / edit_columns. */
function columnsOf(schema: z.ZodObject | undefined) {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const f = field as z.ZodType;
    const optional = f.safeParse(undefined).success;
    return { name, label: label(name), description: f.description ?? '', required: !optional, type: typeName(f), unique: false };
  });
}

/**
 * `_info` as Flask-AppBuilder answers it: add_columns, edit_columns, filters and permissions (the
 * caller's), with their titles; the decoded `q`'s `keys` (`q=(keys:!(...))`) narrows the answer.
 */
export function infoAnswer(spec: InfoSpec, actor: Actor, q?: unknown): Record<string, unknown> {
  const keys = (q as { keys?: unknown } | undefined)?.keys;
  const wanted = Array.isArray(keys) && keys.length ? new Set(keys.map(String)) : null;
  const out: Record<string, unknown> = {};
  const put = (key: string, value: () => unknown) => {
    if (!wanted || wanted.has(key)) out[key] = value();
  };
  put('add_columns', () => columnsOf(spec.add));
  put('add_title', () => `Add ${spec.title}`);
  put('edit_columns', () => columnsOf(spec.edit));
  put('edit_title', () => `Edit ${spec.title}`);
  put('filters', () =>
    Object.fromEntries(
      Object.entries(spec.filters).map(([column, ops]) => [column, ops.map((op) => (typeof op === 'string' ? { name: OPERATOR_NAMES[op] ?? op, operator: op } : op))]),
    ),
  );
  put('permissions', () => spec.permissions.filter((p) => hasPermission(actor, p, spec.view)));
  return out;
}
