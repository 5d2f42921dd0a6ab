import { createContext, useContext, useEffect } from 'react';
import { drawnLabelColors, setForcedLabelColors, startDrawnLabelColors } from '../../viz/shared/colors';

/** The dashboard's colour scheme (json_metadata color_scheme): every chart on it draws with it, as in Superset. */
export const DashboardColorSchemeContext = createContext<string | null>(null);

export const useDashboardColorScheme = (): string | null => useContext(DashboardColorSchemeContext);

const mapOf = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/**
 * A dashboard's colours as its charts draw with them: json_metadata color_scheme (null when it has none), and
 * label_colors (chosen by hand) over shared_label_colors (Superset's older exports keep that one as a list of labels,
 * which names no colour and is passed over). Explore opened from the dashboard (dashboard_id) draws with them too.
 *
 * @example dashboardColors({ color_scheme: 'd3Category10', label_colors: { boy: '#ff0000' } }) // { colorScheme: 'd3Category10', labelColors: { boy: '#ff0000' } }
 */
export function dashboardColors(metadata: Record<string, unknown>): { colorScheme: string | null; labelColors: Record<string, unknown> } {
  return {
    colorScheme: typeof metadata.color_scheme === 'string' && metadata.color_scheme ? metadata.color_scheme : null,
    labelColors: { ...mapOf(metadata.shared_label_colors), ...mapOf(metadata.label_colors) },
  };
}

/** The dashboard's own label colours (see dashboardColors) while it is on screen. */
export function useDashboardLabelColors(metadata: Record<string, unknown>): void {
  useEffect(() => startDrawnLabelColors(), []);
  const labelColors = JSON.stringify(dashboardColors(metadata).labelColors);
  useEffect(() => {
    setForcedLabelColors(JSON.parse(labelColors));
    return () => setForcedLabelColors({});
  }, [labelColors]);
}

/**
 * The shared_label_colors a save writes: every label colour the charts drew this visit over those saved before, less
 * the labels label_colors names by hand. As Superset's save keeps them, the next visit draws each label in the same
 * colour whichever chart draws first (the order changed them before). A new colour scheme starts afresh (what was
 * drawn so far is the old scheme's): none are written until a save under it.
 */
export function sharedLabelColorsToSave(metadata: Record<string, unknown>, savedMetadata: Record<string, unknown>): unknown {
  if (metadata.color_scheme !== savedMetadata.color_scheme) return undefined;
  const own = mapOf(metadata.label_colors);
  const all = Object.entries({ ...mapOf(metadata.shared_label_colors), ...drawnLabelColors() }).filter(([label]) => !(label in own));
  return all.length ? Object.fromEntries(all) : metadata.shared_label_colors;
}
