import { describe, expect, it } from 'vitest';
import { StructuredError } from '../errors/domain-errors';
import { parseTemplateParams, renderSqlTemplate } from './sql-template';

const ctx = { username: 'alice', userId: 7, urlParams: { country: "O'Hara" } };

function errorOf(fn: () => unknown): StructuredError {
  try {
    fn();
  } catch (error) {
    return error as StructuredError;
  }
  throw new Error('expected an error');
}

describe('renderSqlTemplate', () => {
  it('renders parameters and Superset macros', () => {
    expect(renderSqlTemplate("SELECT {{ n }}, '{{ current_username() }}', {{ current_user_id() }}", { n: 3 }, ctx)).toBe("SELECT 3, 'alice', 7");
    expect(renderSqlTemplate("WHERE c = '{{ url_param('country') }}'", {}, ctx)).toBe("WHERE c = 'O''Hara'");
    expect(renderSqlTemplate("{{ url_param('missing', 'dflt') }}", {}, ctx)).toBe('dflt');
    expect(renderSqlTemplate("{% for v in filter_values('x', 'd') %}{{ v }}{% endfor %}", {}, ctx)).toBe('d');
    expect(renderSqlTemplate('{% set y = 2 %}{{ y }}', {}, ctx)).toBe('2');
    expect(renderSqlTemplate('SELECT 1', {}, ctx)).toBe('SELECT 1');
  });

  it('names undefined parameters with Superset messages (MISSING_TEMPLATE_PARAMS_ERROR)', () => {
    const many = errorOf(() => renderSqlTemplate('SELECT {{ a }}, {{ b }}', {}, ctx));
    expect(many.status).toBe(400);
    expect(many.errors[0].error_type).toBe('MISSING_TEMPLATE_PARAMS_ERROR');
    expect(many.errors[0].message).toBe('The following parameters in your query are undefined: "a", "b".');
    expect(many.errors[0].extra?.undefined_parameters).toEqual(['a', 'b']);
    const one = errorOf(() => renderSqlTemplate('SELECT {{ a }}', {}, ctx));
    expect(one.errors[0].message).toBe('The parameter "a" in your query is undefined.');
  });

  it('cannot reach the JavaScript runtime', () => {
    for (const escape of [
      '{{ range.constructor("return process")() }}',
      '{{ "".constructor }}',
      '{{ range["constr" + "uctor"] }}',
      '{{ cycler.__proto__ }}',
      '{% include "/etc/passwd" %}',
    ]) {
      expect(errorOf(() => renderSqlTemplate(escape, {}, ctx)).errors[0].error_type).toBe('INVALID_TEMPLATE_PARAMS_ERROR');
    }
  });

  it('refuses template parameters that are not a JSON object', () => {
    expect(parseTemplateParams('{"a": 1}')).toEqual({ a: 1 });
    expect(errorOf(() => parseTemplateParams('{oops')).errors[0].error_type).toBe('INVALID_TEMPLATE_PARAMS_ERROR');
  });
});
