import { ColorInput } from '@mantine/core';
import { pickerColor, toPickerValue } from '../../viz/shared/colors';

/** Superset's ColorPickerControl: a colour with its opacity, stored as `{ r, g, b, a }`. */
export function ColorPickerControl({ label, value, defaultValue, onChange }: { label: string; value: unknown; defaultValue: unknown; onChange: (value: unknown) => void }) {
  return (
    <ColorInput
      size="xs"
      aria-label={label}
      format="rgba"
      value={pickerColor(value ?? defaultValue, '')}
      onChange={(css) => {
        const next = toPickerValue(css);
        if (next) onChange(next);
      }}
      popoverProps={{ withinPortal: true }}
    />
  );
}
