import { describe, expect, it } from 'vitest';
import { certificationOf, DEFAULT_DASHBOARD_TITLE, expandedSlicesOf, normalizeSlug, parseJsonMetadata, toggleExpandSlice, validateJsonMetadata, withExpandedSlices } from './metadata';

describe('dashboard stored fields (spec 02 §3, §5)', () => {
  it("'The dashboard title defaults to '[ untitled dashboard ]''", () => {
    expect(DEFAULT_DASHBOARD_TITLE).toBe('[ untitled dashboard ]');
  });

  it("'slug is null when empty'; spaces become dashes and other characters are dropped", () => {
    expect(normalizeSlug('')).toBeNull();
    expect(normalizeSlug('   ')).toBeNull();
    expect(normalizeSlug(null)).toBeNull();
    expect(normalizeSlug(' My sales board! ')).toBe('My-sales-board');
    expect(normalizeSlug('births_2024')).toBe('births_2024');
  });

  it("'certification_details are kept only when certified_by is set'", () => {
    expect(certificationOf('Data team', 'Checked weekly')).toEqual({ certified_by: 'Data team', certification_details: 'Checked weekly' });
    expect(certificationOf('', 'Checked weekly')).toEqual({ certified_by: null, certification_details: null });
    expect(certificationOf(null, 'x')).toEqual({ certified_by: null, certification_details: null });
  });

  it('validates json_metadata key by key: a refresh_frequency that is not a number is refused', () => {
    expect(validateJsonMetadata({ refresh_frequency: 'often' })).toEqual({ refresh_frequency: ['Not a valid integer.'] });
    expect(validateJsonMetadata({ refresh_frequency: 300, stagger_refresh: true, stagger_time: 5000, color_scheme: 'supersetColors' })).toEqual({});
    expect(validateJsonMetadata({ timed_refresh_immune_slices: [1, 'x'], native_filter_configuration: {} })).toEqual({
      timed_refresh_immune_slices: ['Not a valid integer.'],
      native_filter_configuration: ['Not a valid list.'],
    });
    expect(validateJsonMetadata({ filter_bar_orientation: 'DIAGONAL' })).toEqual({ filter_bar_orientation: ['Must be one of: VERTICAL, HORIZONTAL.'] });
    expect(validateJsonMetadata({ default_filters: '{bad' })).toEqual({ default_filters: ['JSON not valid'] });
    expect(validateJsonMetadata([])).toEqual({ _schema: ['Invalid input type.'] });
  });

  it('keeps keys it does not know, so metadata exported from Superset loads unchanged', () => {
    expect(parseJsonMetadata('{"some_future_key": {"a": 1}, "refresh_frequency": 0}')).toEqual({ ok: true, value: { some_future_key: { a: 1 }, refresh_frequency: 0 } });
    expect(parseJsonMetadata('')).toEqual({ ok: true, value: {} });
    expect(parseJsonMetadata('{nope')).toEqual({ ok: false, errors: { _schema: ['JSON not valid'] } });
  });
});

describe('spec 02 §3 metadata expanded_slices (dashboard state expandedSlices)', () => {
  it('opens the descriptions of the charts stored as {chartId: true}; others, and a stored value that is no mapping, stay closed', () => {
    expect(expandedSlicesOf({ expanded_slices: { '12': true, '13': false, '14': 1 } })).toEqual({ '12': true, '14': true });
    expect(expandedSlicesOf({ expanded_slices: [12] })).toEqual({});
    expect(expandedSlicesOf({})).toEqual({});
  });

  it('a toggle opens a closed description (chartId: true) and closes an open one by removing its key', () => {
    const opened = toggleExpandSlice({}, 12);
    expect(opened).toEqual({ '12': true });
    expect(toggleExpandSlice(opened, '12')).toEqual({});
    expect(toggleExpandSlice({ '5': true }, 12)).toEqual({ '5': true, '12': true });
  });

  it('saves the open descriptions as expanded_slices; none open and none stored leaves the metadata text as it was', () => {
    expect(JSON.parse(withExpandedSlices('{"color_scheme":"x"}', { '7': true }))).toEqual({ color_scheme: 'x', expanded_slices: { '7': true } });
    expect(withExpandedSlices('{"color_scheme":"x"}', {})).toBe('{"color_scheme":"x"}');
    expect(JSON.parse(withExpandedSlices('{"expanded_slices":{"7":true}}', {}))).toEqual({ expanded_slices: {} });
  });
});
