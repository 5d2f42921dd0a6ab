import { describe, it, expect } from 'vitest';
import { buildEntityListLink, chartUrlParamEntries, dashboardUrlParamEntries, decodeRison, encodeRison, getUrlParam } from './permalink-params';

describe('permalink URL params (spec 01 §2, spec 02 §2)', () => {
  it("'Boolean values false or 0 read as false'", () => {
    expect(getUrlParam('?standalone=false', 'standalone', 'boolean')).toBe(false);
    expect(getUrlParam('?standalone=0', 'standalone', 'boolean')).toBe(false);
    expect(getUrlParam('?standalone=true', 'standalone', 'boolean')).toBe(true);
    expect(getUrlParam('?standalone=1', 'standalone', 'boolean')).toBe(true);
    expect(getUrlParam('', 'standalone', 'boolean')).toBeNull();
  });

  it("'For numbers, true and false read as 1 and 0'", () => {
    expect(getUrlParam('?force=true', 'force', 'number')).toBe(1);
    expect(getUrlParam('?force=false', 'force', 'number')).toBe(0);
    expect(getUrlParam('?slice_id=42', 'slice_id', 'number')).toBe(42);
  });

  it("'unparsable numbers read as null'", () => {
    expect(getUrlParam('?slice_id=abc', 'slice_id', 'number')).toBeNull();
    expect(getUrlParam('?other=1', 'slice_id', 'number')).toBeNull();
  });

  it('reads an object param as JSON', () => {
    const search = new URLSearchParams({ form_data: JSON.stringify({ slice_id: 7 }) });
    expect(getUrlParam(search, 'form_data', 'object')).toEqual({ slice_id: 7 });
    expect(getUrlParam('?form_data=%7Bbroken', 'form_data', 'object')).toBeNull();
  });

  it('reads a rison param, keeping the raw text when it is not rison', () => {
    expect(getUrlParam(`?q=${encodeURIComponent('(page:0,page_size:200)')}`, 'q', 'rison')).toEqual({ page: 0, page_size: 200 });
    expect(getUrlParam('?q=(broken', 'q', 'rison')).toBe('(broken');
  });

  it('reads plain text', () => {
    expect(getUrlParam('?viz_type=pie', 'viz_type')).toBe('pie');
    expect(getUrlParam('?viz_type=pie', 'missing')).toBeNull();
  });

  it('round-trips rison', () => {
    const value = { filters: [{ col: 'owners', opr: 'rel_m_m', value: 3 }], order_column: 'changed_on' };
    expect(decodeRison(encodeRison(value))).toEqual(value);
  });

  it("'A link to an entity listing page is built with a query parameter id'", () => {
    expect(buildEntityListLink('/chart/list/', 5)).toBe('/chart/list/?id=5');
    expect(buildEntityListLink('/chart/list/?page=2', 'a b')).toBe('/chart/list/?page=2&id=a+b');
  });
});

describe("spec 02 §2 'Dashboard permalinks carry URL params', spec 01 §7 explore permalink 'formData and urlParams'", () => {
  it("keeps a dashboard address's own parameters in order, leaving out Superset's reserved keys and those the screen reads", () => {
    const search = '?country=FR&native_filters_key=abc&edit=true&standalone=1&year=2020&preselect_filters=%7B%7D&native_filters=x&permalink_key=k&show_filters=0&expand_filters=1&dashboard-focused-chart=3&country=DE';
    expect(dashboardUrlParamEntries(search)).toEqual([['country', 'FR'], ['year', '2020'], ['country', 'DE']]);
    expect(dashboardUrlParamEntries('')).toEqual([]);
  });

  it("keeps an Explore address's extra parameters, leaving out Superset's reserved chart keys and Explore's own", () => {
    const search = new URLSearchParams({ slice_id: '5', form_data_key: 'k', datasource_id: '1', datasource_type: 'table', dataset_id: '1', form_data: '{}', dashboard_id: '2', viz_type: 'pie', standalone: '1', force: 'true', permalink_key: 'p', region: 'EU' });
    expect(chartUrlParamEntries(search)).toEqual([['region', 'EU']]);
  });
});
