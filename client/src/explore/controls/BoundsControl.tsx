import { Group, NumberInput } from '@mantine/core';

/** Superset's BoundsControl: [min, max], an empty side null ('Y Axis Bounds'). */
export function BoundsControl({ label, value, onChange, error }: { label: string; value: unknown; onChange: (value: unknown) => void; error?: string }) {
  const bounds = Array.isArray(value) ? value : [null, null];
  const side = (i: 0 | 1, v: string | number) => {
    const next = [bounds[0] ?? null, bounds[1] ?? null];
    next[i] = v === '' ? null : Number(v);
    onChange(next);
  };
  return (
    <Group grow gap="xs" wrap="nowrap">
      <NumberInput size="xs" aria-label={`${label}: min`} placeholder="Min" value={bounds[0] ?? ''} onChange={(v) => side(0, v)} error={error} />
      <NumberInput size="xs" aria-label={`${label}: max`} placeholder="Max" value={bounds[1] ?? ''} onChange={(v) => side(1, v)} />
    </Group>
  );
}
