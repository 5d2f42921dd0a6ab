import { Anchor, Badge, Container, Text } from '@mantine/core';
import type { RoleView } from '@meridian/contracts/schemas/security';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { ListView, type ListViewFilter } from '../components/ListView';
import { PageHeader } from '../components/PageHeader';
import { RolePermissionsDrawer } from './RolePermissionsDrawer';

const FILTERS: ListViewFilter[] = [{ col: 'name', label: 'Search roles', input: 'search', operator: 'ct' }];

/** Settings → Roles: each role with how many permissions and users it has; a role opens its permission list. */
export function RoleListScreen() {
  const [open, setOpen] = useState<RoleView | null>(null);
  const columns = useMemo<ColumnDef<RoleView>[]>(
    () => [
      {
        id: 'name',
        header: 'Name',
        cell: ({ row }) => (
          <Anchor component="button" type="button" fw={600} size="sm" onClick={() => setOpen(row.original)}>
            {row.original.name}
          </Anchor>
        ),
      },
      {
        id: 'permissions',
        header: 'Permissions',
        enableSorting: false,
        cell: ({ row }) => (
          <Badge variant="light" color="gray" radius="sm" tt="none">
            {row.original.permissions.length} permissions
          </Badge>
        ),
      },
      {
        id: 'users',
        header: 'Users',
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" c="dimmed">
            {row.original.user_ids.length}
          </Text>
        ),
      },
    ],
    [],
  );
  return (
    <Container size="xl" py="xl">
      <PageHeader title="Roles" description="Roles group permissions; a user holds one or more roles." />
      <ListView<RoleView> label="Roles" endpoint="/api/v1/security/roles/" columns={columns} filters={FILTERS} initialSort={{ id: 'name', desc: false }} emptyState={{ title: 'No roles yet' }} />
      <RolePermissionsDrawer role={open} onClose={() => setOpen(null)} />
    </Container>
  );
}
