import { ActionIcon, Avatar, Group, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../settings/format';

/** 'First Last' of a Superset person (owner, changed_by, created_by); '' for none. */
export const personName = (p: { first_name: string; last_name: string } | null | undefined): string => (p ? `${p.first_name} ${p.last_name}`.trim() : '');

/** One icon button of a row's action menu, with its tooltip. */
export function RowAction({ label, ariaLabel, icon, color = 'gray', onClick }: { label: string; ariaLabel: string; icon: ReactNode; color?: string; onClick: () => void }) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color={color} aria-label={ariaLabel} onClick={onClick}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}

/** The unsortable, unlabelled last column holding a row's action buttons (`RowAction`s), right-aligned. */
export function actionsColumn<T>(render: (row: T) => ReactNode): ColumnDef<T> {
  return {
    id: 'actions',
    header: () => <VisuallyHidden>Actions</VisuallyHidden>,
    enableSorting: false,
    cell: ({ row }) => (
      <Group gap={2} justify="flex-end" wrap="nowrap">
        {render(row.original)}
      </Group>
    ),
  };
}

/** What a "Modified" cell shows: the humanized delta, with the exact time (and who) in its tooltip. */
export interface ChangedOn {
  humanized: string | null;
  at: string | null;
  by?: string | null;
}

/** The "Modified" column: sorts by `id` (a Superset column), shows e.g. '3 days ago' with the date and author on hover. */
export function changedOnColumn<T>(id: string, pick: (row: T) => ChangedOn): ColumnDef<T> {
  return {
    id,
    header: 'Modified',
    cell: ({ row }) => {
      const { humanized, at, by } = pick(row.original);
      return (
        <Tooltip label={`${at ? formatDateTime(at) : ''}${by ? ` by ${by}` : ''}`}>
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {humanized}
          </Text>
        </Tooltip>
      );
    },
  };
}

type Person = { id: number; first_name: string; last_name: string };

/** The unsortable Owners column of a list: up to four initials avatars (the name on hover) and '+N' for the rest; '—' when nobody owns the row. */
export function ownersColumn<T extends { owners: Person[] }>(): ColumnDef<T> {
  return {
    id: 'owners',
    header: 'Owners',
    enableSorting: false,
    cell: ({ row }) =>
      row.original.owners.length ? (
        <Tooltip.Group openDelay={200}>
          <Avatar.Group spacing={6} data-testid="owners">
            {row.original.owners.slice(0, 4).map((o) => (
              <Tooltip key={o.id} label={personName(o)}>
                <Avatar size={26} radius="xl" name={personName(o)} color="initials" />
              </Tooltip>
            ))}
            {row.original.owners.length > 4 && <Avatar size={26} radius="xl">+{row.original.owners.length - 4}</Avatar>}
          </Avatar.Group>
        </Tooltip.Group>
      ) : (
        <Text size="sm" c="dimmed" data-testid="owners">
          —
        </Text>
      ),
  };
}
