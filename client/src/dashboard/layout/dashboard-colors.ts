import { createContext, useContext, useEffect } from 'react';
import { setForcedLabelColors } from '../../viz/shared/colors';

/** The dashboard's colour scheme (json_metadata color_scheme): every chart on it draws with it, as in Superset. */
export const DashboardColorSchemeContext = createContext<string | null>(null);

export const useDashboardColorScheme = (): string | null => useContext(DashboardColorSchemeContext);

const mapOf = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/**
 * The dashboard's own label colours while it is on screen: label_colors (chosen by hand) over shared_label_colors
 * (Superset's older exports keep that one as a list of labels, which names no colour and is passed over).
 */
export function useDashboardLabelColors(metadata: Record<string, unknown>): void {
  const labelColors = JSON.stringify({ ...mapOf(metadata.shared_label_colors), ...mapOf(metadata.label_colors) });
  useEffect(() => {
    setForcedLabelColors(JSON.parse(labelColors));
    return () => setForcedLabelColors({});
  }, [labelColors]);
}
