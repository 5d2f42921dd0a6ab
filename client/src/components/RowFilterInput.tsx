import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/**
 * The text box that narrows a grid's rows to those with a cell holding its text (SQL Lab's "Filter results", the data
 * panes' "Search"), with a button that clears it. `label` names it for screen readers; `clearLabel` names the button.
 */
export function RowFilterInput({ value, onChange, label, clearLabel, ...props }: { value: string; onChange: (value: string) => void; label: string; clearLabel: string } & Omit<TextInputProps, 'value' | 'onChange'>) {
  return (
    <TextInput
      size="xs"
      aria-label={label}
      leftSection={<IconSearch size={13} />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      rightSection={value ? <CloseButton size="xs" aria-label={clearLabel} onClick={() => onChange('')} /> : undefined}
      {...props}
    />
  );
}
