import { ActionIcon, Button, ColorSwatch, Group, NumberInput, Select, Stack } from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { conditionalFormattingColumns } from '../../viz/shared/column-config';
import type { ControlContext } from '../../viz/types';

const OPERATORS = ['<', '>', '≤', '≥', '=', '≠', '< x <', '≤ x ≤', 'None'];
const RULE_COLORS = [
  ['#5AC189', 'Green'],
  ['#E04355', 'Red'],
  ['#FCC700', 'Yellow'],
  ['#1FA8C9', 'Blue'],
  ['#A868B7', 'Purple'],
];

/** Conditional formatting rules for tables: column, operator, value(s) and colour. */
export function ConditionalFormattingControl({ value, onChange, ctx }: { value: unknown; onChange: (v: unknown) => void; ctx: ControlContext }) {
  const rules = (Array.isArray(value) ? value : []) as Array<Record<string, any>>;
  // The columns a rule can colour, named as the chart names them (a saved metric by its verbose name).
  const columns = conditionalFormattingColumns(ctx);
  const set = (i: number, patch: Record<string, unknown>) => onChange(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <Stack gap={6}>
      {rules.map((rule, i) => (
        <Stack key={i} gap={4} p={6} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}>
          <Group gap={4} wrap="nowrap">
            <Select size="xs" aria-label="Column" placeholder="Column" data={columns} value={rule.column ?? null} onChange={(v) => set(i, { column: v })} style={{ flex: 1 }} />
            <ActionIcon variant="subtle" color="gray" aria-label="Remove rule" onClick={() => onChange(rules.filter((_, j) => j !== i))}>
              <IconX size={14} />
            </ActionIcon>
          </Group>
          <Group gap={4} wrap="nowrap" grow>
            <Select size="xs" aria-label="Operator" data={OPERATORS} value={rule.operator ?? '>'} onChange={(v) => set(i, { operator: v })} />
            {String(rule.operator).includes('x') ? (
              <>
                <NumberInput size="xs" aria-label="Left value" value={rule.targetValueLeft ?? ''} onChange={(v) => set(i, { targetValueLeft: v })} />
                <NumberInput size="xs" aria-label="Right value" value={rule.targetValueRight ?? ''} onChange={(v) => set(i, { targetValueRight: v })} />
              </>
            ) : (
              rule.operator !== 'None' && <NumberInput size="xs" aria-label="Target value" value={rule.targetValue ?? ''} onChange={(v) => set(i, { targetValue: v })} />
            )}
          </Group>
          <Select size="xs" aria-label="Color" data={RULE_COLORS.map(([v, l]) => ({ value: v!, label: l! }))} value={rule.colorScheme ?? '#5AC189'} onChange={(v) => set(i, { colorScheme: v })} leftSection={<ColorSwatch color={rule.colorScheme ?? '#5AC189'} size={12} />} />
        </Stack>
      ))}
      <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} onClick={() => onChange([...rules, { column: columns[0]?.value ?? null, operator: '>', targetValue: 0, colorScheme: '#5AC189' }])}>
        Add new color formatter
      </Button>
    </Stack>
  );
}
