import { Select } from '@mantine/core';
import { useState } from 'react';
import type { ControlConfig, ControlContext } from '../../viz/types';
import { freeFormChoices } from './free-form-choices';

export const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export interface FieldProps {
  control: ControlConfig;
  value: unknown;
  onChange: (v: unknown) => void;
  error?: string;
}

export function choicesOf(control: ControlConfig, ctx: ControlContext) {
  const raw = typeof control.choices === 'function' ? control.choices(ctx) : (control.choices ?? []);
  return raw.map(([value, label]) => ({ value: str(value), label, raw: value }));
}

/**
 * A free-form select (Superset's creatable selects: format pickers, row limit): opened, it lists every choice, with the
 * current value as the placeholder; a typed value that is no choice is offered first and can be picked (a d3 format
 * such as '$,.1f'). Where the choices are numbers the typed text is kept as it is typed, so the number validators of
 * spec 01 §5 judge it (a canonical number is stored as a number).
 */
export function FreeFormSelect({ control, ctx, value, onChange, error, withinPortal = true }: FieldProps & { ctx: ControlContext; withinPortal?: boolean }) {
  const choices = choicesOf(control, ctx);
  const numeric = choices.length > 0 && choices.every((c) => typeof c.raw === 'number');
  const [search, setSearch] = useState('');
  const data = freeFormChoices(choices, search, value);
  const selected = data.find((c) => c.value === str(value));
  return (
    <Select
      size="xs"
      aria-label={control.label}
      searchable
      selectFirstOptionOnChange
      data={data.map(({ value: v, label }) => ({ value: v, label }))}
      value={selected ? selected.value : null}
      placeholder={selected?.label}
      searchValue={search}
      onSearchChange={(text) => {
        setSearch(text);
        if (!numeric || text === '' || text === selected?.label) return;
        const named = choices.find((c) => c.label === text);
        onChange(named ? named.raw : String(Number(text)) === text.trim() ? Number(text) : text);
      }}
      // Focused, the input starts empty (the current value stays as its placeholder), so typing searches every choice.
      onFocus={() => setSearch('')}
      onOptionSubmit={(v) => setSearch(data.find((c) => c.value === v)?.label ?? '')}
      onChange={(v) => onChange(data.find((c) => c.value === v)?.raw ?? v)}
      allowDeselect={false}
      clearable={!!control.clearable}
      error={error}
      comboboxProps={{ withinPortal }}
    />
  );
}
