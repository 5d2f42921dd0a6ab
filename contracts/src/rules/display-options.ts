/** Dashboard display bitmask of spec 02 §2: 1 hides the title, 2 the tab, 4 the navigation, 8 chart controls. */
export const DashboardStandaloneMode = {
  HIDE_TITLE: 1,
  HIDE_TAB: 2,
  HIDE_NAV: 4,
  HIDE_CHART_CONTROLS: 8,
} as const;

export interface DashboardDisplayOptions {
  hideTitle: boolean;
  hideTab: boolean;
  hideNav: boolean;
  hideChartControls: boolean;
}

/** The address parameter that carries the bitmask (Superset's `uiConfig`, which its embedded SDK sends). */
export const DISPLAY_OPTIONS_URL_KEY = 'uiConfig';

/** Reads the bitmask (the `uiConfig` URL value). Example: `5` → title and navigation hidden. */
export function displayOptionsFromMask(mask: number | null | undefined): DashboardDisplayOptions {
  const value = Number.isInteger(Number(mask)) ? Number(mask) : 0;
  return {
    hideTitle: (value & DashboardStandaloneMode.HIDE_TITLE) !== 0,
    hideTab: (value & DashboardStandaloneMode.HIDE_TAB) !== 0,
    hideNav: (value & DashboardStandaloneMode.HIDE_NAV) !== 0,
    hideChartControls: (value & DashboardStandaloneMode.HIDE_CHART_CONTROLS) !== 0,
  };
}

/** The inverse of `displayOptionsFromMask`. */
export function displayOptionsToMask(options: Partial<DashboardDisplayOptions>): number {
  return (
    (options.hideTitle ? DashboardStandaloneMode.HIDE_TITLE : 0) |
    (options.hideTab ? DashboardStandaloneMode.HIDE_TAB : 0) |
    (options.hideNav ? DashboardStandaloneMode.HIDE_NAV : 0) |
    (options.hideChartControls ? DashboardStandaloneMode.HIDE_CHART_CONTROLS : 0)
  );
}

/**
 * The filter bar as the address asks (the embedded SDK's `dashboardUiConfig.filters`, sent as `show_filters` and
 * `expand_filters`): `visible` false hides the bar (the filters' values still apply), `expanded` false starts it
 * collapsed; null when not given. Read as Superset's getUrlParam reads a boolean: 'false' or '0' is false, any
 * other value true. Example: `?show_filters=true&expand_filters=false` → `{ visible: true, expanded: false }`.
 */
export function filterBarOptionsFromSearch(search: string | URLSearchParams): { visible: boolean; expanded: boolean | null } {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const flag = (key: string) => {
    const value = params.get(key);
    return value ? value.toLowerCase() !== 'false' && value !== '0' : null;
  };
  return { visible: flag('show_filters') ?? true, expanded: flag('expand_filters') };
}

/** URL keys that only steer how a dashboard is shown. */
export const RESERVED_DASHBOARD_URL_KEYS = ['standalone', 'edit'] as const;

/** 'regular' drops `standalone` and `edit`; 'reserved' keeps only those two. */
export type UrlQueryMode = 'regular' | 'reserved';

/** Splits a query string by the two modes of spec 02 §2 and returns the kept pairs as an object. */
export function getUrlQueryParams(search: string | URLSearchParams, mode: UrlQueryMode): Record<string, string> {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const reserved = new Set<string>(RESERVED_DASHBOARD_URL_KEYS);
  const result: Record<string, string> = {};
  params.forEach((value, key) => {
    if (reserved.has(key) === (mode === 'reserved')) result[key] = value;
  });
  return result;
}

/** Edit mode needs the edit permission and the reserved parameter edit=true (spec 02 §2). */
export function isEditModeRequested(search: string | URLSearchParams, canEdit: boolean): boolean {
  return canEdit && getUrlQueryParams(search, 'reserved').edit === 'true';
}
