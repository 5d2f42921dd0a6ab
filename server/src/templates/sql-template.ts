import nunjucks from 'nunjucks';
import { StructuredError } from '../errors/domain-errors';

/** One filter as Superset's `get_filters` returns it. */
export interface TemplateFilter {
  col: string;
  op: string;
  val: unknown;
}

/** What the Superset-style macros can see besides the template parameters. */
export interface TemplateContext {
  username: string | null;
  userId: number | null;
  /** URL parameters for `url_param` (SQL Lab: `url_params` of the template parameters). */
  urlParams?: Record<string, unknown>;
  /** Filters for `filter_values` / `get_filters` (empty in SQL Lab). */
  filters?: TemplateFilter[];
}

/** Names a template may never look up: the ways out of a JavaScript template into the runtime. */
const FORBIDDEN_KEYS = new Set([
  'constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__',
  'call', 'apply', 'bind', 'caller', 'callee', 'arguments', 'valueOf', 'toString', 'globalThis', 'global', 'process', 'require',
]);
const FORBIDDEN_TAGS = new Set(['Include', 'Import', 'FromImport', 'Extends', 'CallExtension', 'CallExtensionAsync']);
const BUILTIN_NAMES = new Set(['loop', 'range', 'cycler', 'joiner', 'caller', 'true', 'false', 'none', 'True', 'False', 'None']);
const MACROS = ['current_username', 'current_user_id', 'url_param', 'filter_values', 'get_filters'];

/** No loader (no file system), no autoescape, undefined output is an error. */
const env = new nunjucks.Environment([], { autoescape: false, throwOnUndefined: true, trimBlocks: false });

/** Quick test Superset uses to skip rendering SQL without template syntax. */
export function hasTemplate(sql: string): boolean {
  return /\{\{|\{%|\{#/.test(sql);
}

function templateError(type: 'MISSING_TEMPLATE_PARAMS_ERROR' | 'INVALID_TEMPLATE_PARAMS_ERROR', message: string, extra: Record<string, unknown>): StructuredError {
  const issue = type === 'MISSING_TEMPLATE_PARAMS_ERROR'
    ? { code: 1006, message: 'Issue 1006 - One or more parameters specified in the query are missing.' }
    : { code: 1028, message: 'Issue 1028 - The query contains one or more malformed template parameters.' };
  return new StructuredError(400, [{ message, error_type: type, level: 'error', extra: { ...extra, issue_codes: [issue] } }]);
}

const MALFORMED = 'The query contains one or more malformed template parameters. Please check your query and confirm that all template parameters are surround by double braces, for example, "{{ ds }}". Then, try running your query again.';

/** Superset's `format_list`: `"a", "b"`. */
function formatList(items: string[]): string {
  return items.map((x) => `"${x.replaceAll('"', '\\"')}"`).join(', ');
}

type AstNode = { typename?: string; fields?: string[]; children?: AstNode[]; value?: unknown; [key: string]: unknown };

/** Walks the parsed template: refuses forbidden constructs, collects referenced and declared names. */
function inspect(root: AstNode): { referenced: Set<string>; declared: Set<string> } {
  const referenced = new Set<string>();
  const declared = new Set<string>();
  const declare = (node: unknown) => {
    const n = node as AstNode;
    if (!n) return;
    if (n.typename === 'Symbol') declared.add(String(n.value));
    for (const child of n.children ?? []) declare(child);
  };
  const visit = (node: unknown, role: 'ref' | 'skip' = 'ref'): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n) => visit(n, role));
    const n = node as AstNode;
    const type = n.typename;
    if (!type) return;
    if (FORBIDDEN_TAGS.has(type)) throw templateError('INVALID_TEMPLATE_PARAMS_ERROR', `The template tag "${type.toLowerCase()}" is not allowed.`, {});
    if (type === 'Symbol') {
      if (role === 'ref') referenced.add(String(n.value));
      return;
    }
    if (type === 'LookupVal') {
      const val = n.val as AstNode;
      if (val?.typename !== 'Literal') throw templateError('INVALID_TEMPLATE_PARAMS_ERROR', 'Template attribute lookups must use a literal name.', {});
      if (FORBIDDEN_KEYS.has(String(val.value))) throw templateError('INVALID_TEMPLATE_PARAMS_ERROR', `The template attribute "${String(val.value)}" is not allowed.`, {});
      visit(n.target);
      return;
    }
    if (type === 'Set') (n.targets as AstNode[]).forEach(declare);
    if (type === 'For' || type === 'AsyncEach' || type === 'AsyncAll') declare(n.name);
    if (type === 'Macro' || type === 'Caller') {
      declare(n.name);
      for (const arg of (n.args as AstNode)?.children ?? []) {
        if (arg.typename === 'KeywordArgs') for (const pair of arg.children ?? []) declare(pair.key);
        else declare(arg);
      }
    }
    if (type === 'Pair' && (n as AstNode).key && ((n.key as AstNode).typename === 'Symbol')) {
      // keyword argument names (f(k=1)) and dict keys are not references
      visit(n.value);
      return;
    }
    if (type === 'Filter' || type === 'FilterAsync') {
      visit(n.args);
      return;
    }
    for (const child of n.children ?? []) visit(child);
    for (const field of n.fields ?? []) {
      if (field === 'name' && (type === 'For' || type === 'Macro' || type === 'Caller')) continue;
      if (field === 'targets' && type === 'Set') continue;
      if (field === 'args' && (type === 'Macro' || type === 'Caller')) continue;
      visit(n[field]);
    }
  };
  visit(root);
  return { referenced, declared };
}

/** Superset's escaping of a url_param value as a SQL string literal body. */
const escapeLiteral = (value: unknown) => (typeof value === 'string' ? value.replaceAll("'", "''") : value);

/**
 * Renders SQL Lab / dataset SQL templates (Jinja-like, through nunjucks) with Superset's macros:
 * `current_username()`, `current_user_id()`, `url_param(name, default)`, `filter_values(column, default)`,
 * `get_filters(column)`. Templates reach only the parameters and these macros: no loaders, no
 * globals, no prototype lookups. Undefined parameters give MISSING_TEMPLATE_PARAMS_ERROR.
 *
 * @example renderSqlTemplate("SELECT '{{ name }}'", { name: 'x' }, { username: 'admin', userId: 1 }) // "SELECT 'x'"
 */
export function renderSqlTemplate(sql: string, params: Record<string, unknown>, context: TemplateContext): string {
  if (!hasTemplate(sql)) return sql;
  let ast: AstNode;
  try {
    ast = (nunjucks as unknown as { parser: { parse(src: string, extensions: unknown[], opts: object): unknown } }).parser.parse(sql, [], {}) as AstNode;
  } catch (error) {
    throw templateError('INVALID_TEMPLATE_PARAMS_ERROR', MALFORMED, { template_parameters: params, detail: (error as Error).message });
  }
  const { referenced, declared } = inspect(ast);
  const known = new Set([...Object.keys(params), ...MACROS, ...BUILTIN_NAMES, ...declared]);
  const undefinedParameters = [...referenced].filter((name) => !known.has(name)).sort();
  if (undefinedParameters.length) {
    const list = formatList(undefinedParameters);
    const message = undefinedParameters.length === 1
      ? `The parameter ${list} in your query is undefined.`
      : `The following parameters in your query are undefined: ${list}.`;
    throw templateError('MISSING_TEMPLATE_PARAMS_ERROR', message, { undefined_parameters: undefinedParameters, template_parameters: params });
  }
  const filters = context.filters ?? [];
  const getFilters = (column: string) => filters.filter((f) => f.col === column).map((f) => ({ ...f }));
  const macros: Record<string, unknown> = {
    current_username: () => context.username,
    current_user_id: () => context.userId,
    url_param: (name: string, fallback: unknown = null, _addToCacheKeys = true, escapeResult = true) => {
      const value = context.urlParams && Object.prototype.hasOwnProperty.call(context.urlParams, name) ? context.urlParams[name] : fallback;
      return escapeResult ? escapeLiteral(value) : value;
    },
    get_filters: getFilters,
    filter_values: (column: string, fallback: unknown = null) => {
      const values: unknown[] = [];
      for (const f of getFilters(column)) {
        if (Array.isArray(f.val)) values.push(...f.val);
        else if (f.val !== null && f.val !== undefined && f.val !== '') values.push(f.val);
      }
      return values.length === 0 && fallback !== null && fallback !== undefined ? [fallback] : values;
    },
  };
  const scope = Object.assign(Object.create(null), params, macros);
  try {
    return env.renderString(sql, scope);
  } catch (error) {
    const message = (error as Error).message;
    const missing = /attempted to output null or undefined value/.test(message);
    if (missing) {
      throw templateError('MISSING_TEMPLATE_PARAMS_ERROR', `The following parameters in your query are undefined: ${message.split('\n').pop()?.trim()}.`, { template_parameters: params });
    }
    throw templateError('INVALID_TEMPLATE_PARAMS_ERROR', MALFORMED, { template_parameters: params, detail: message });
  }
}

/** Parses SQL Lab's `templateParams` JSON text; invalid JSON is INVALID_TEMPLATE_PARAMS_ERROR. */
export function parseTemplateParams(text: string | Record<string, unknown> | null | undefined): Record<string, unknown> {
  if (!text) return {};
  if (typeof text === 'object') return text;
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // fall through
  }
  throw templateError('INVALID_TEMPLATE_PARAMS_ERROR', 'The template parameters are not valid JSON: write them as a JSON object, for example {"limit": 10}.', { template_parameters: text });
}
