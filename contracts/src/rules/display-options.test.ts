import { describe, it, expect } from 'vitest';
import { displayOptionsFromMask, displayOptionsToMask, filterBarOptionsFromSearch, getUrlQueryParams, isEditModeRequested } from './display-options';

describe('dashboard display options (spec 02 §2)', () => {
  it("'1 hides the title, 2 hides the tab, 4 hides the navigation, 8 hides chart controls'", () => {
    expect(displayOptionsFromMask(1)).toEqual({ hideTitle: true, hideTab: false, hideNav: false, hideChartControls: false });
    expect(displayOptionsFromMask(2).hideTab).toBe(true);
    expect(displayOptionsFromMask(4).hideNav).toBe(true);
    expect(displayOptionsFromMask(8).hideChartControls).toBe(true);
    expect(displayOptionsFromMask(15)).toEqual({ hideTitle: true, hideTab: true, hideNav: true, hideChartControls: true });
    expect(displayOptionsFromMask(null)).toEqual({ hideTitle: false, hideTab: false, hideNav: false, hideChartControls: false });
  });

  it('turns options back into the mask', () => {
    expect(displayOptionsToMask({ hideTitle: true, hideNav: true })).toBe(5);
  });

  it("'URL query parsing drops the keys standalone and edit in one mode and keeps only those in the other mode'", () => {
    const search = '?standalone=1&edit=true&native_filters_key=abc&foo=bar';
    expect(getUrlQueryParams(search, 'regular')).toEqual({ native_filters_key: 'abc', foo: 'bar' });
    expect(getUrlQueryParams(search, 'reserved')).toEqual({ standalone: '1', edit: 'true' });
  });

  it("'Edit mode requires the edit permission and a reserved URL parameter edit=true'", () => {
    expect(isEditModeRequested('?edit=true', true)).toBe(true);
    expect(isEditModeRequested('?edit=true', false)).toBe(false);
    expect(isEditModeRequested('?edit=false', true)).toBe(false);
  });

  it("reads the embedded SDK's filters config (show_filters, expand_filters) as Superset's booleans: shown, and open as it likes, unless told", () => {
    expect(filterBarOptionsFromSearch('')).toEqual({ visible: true, expanded: null });
    expect(filterBarOptionsFromSearch('?show_filters=false&expand_filters=false')).toEqual({ visible: false, expanded: false });
    expect(filterBarOptionsFromSearch('?show_filters=0&expand_filters=0')).toEqual({ visible: false, expanded: false });
    expect(filterBarOptionsFromSearch('?show_filters=FALSE')).toEqual({ visible: false, expanded: null });
    expect(filterBarOptionsFromSearch(new URLSearchParams('show_filters=true&expand_filters=true'))).toEqual({ visible: true, expanded: true });
    // An empty value counts as not given.
    expect(filterBarOptionsFromSearch('?show_filters=&expand_filters=')).toEqual({ visible: true, expanded: null });
  });
});
