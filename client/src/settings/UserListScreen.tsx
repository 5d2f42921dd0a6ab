import { Badge, Button, Container, Group, Text } from '@mantine/core';
import type { UserView } from '@meridian/contracts/schemas/security';
import { IconPencil, IconPlus, IconUserCheck, IconUserOff } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useSessionUser } from '../auth/session';
import { actionsColumn, booleanFilter, ListView, listKey, RowAction, searchFilter, useDeleteAction, type ListViewBulkAction, type ListViewFilter } from '../components/ListView';
import { PageHeader } from '../components/PageHeader';
import { addSuccessToast, addWarningToast, toastError } from '../notify';
import { trpc } from '../trpc';
import { formatDateTime } from './format';
import { UserFormModal } from './UserFormModal';

const ENDPOINT = '/api/v1/security/users/';

const FILTERS: ListViewFilter[] = [
  searchFilter('username', 'Search username'),
  searchFilter('email', 'Search email'),
  booleanFilter('active', 'Status', 'eq', { true: 'Active', false: 'Inactive' }),
];

/** Settings → Users: list, add, edit, deactivate and delete users (Superset's /users/list/). */
export function UserListScreen() {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ user: UserView | null; key: number } | null>(null);
  const update = useMutation(trpc.user.update.mutationOptions());
  const remove = useMutation(trpc.user.delete.mutationOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: listKey(ENDPOINT) });
  const del = useDeleteAction<UserView>({
    endpoint: ENDPOINT,
    noun: 'users',
    nameOf: (u) => u.username,
    removeEach: (u) => remove.mutateAsync({ id: u.id }),
    deletedOne: (u) => `Deleted ${u.username}`,
  });

  const setActive = async (user: UserView, active: boolean) => {
    try {
      await update.mutateAsync({ id: user.id, changes: { active } });
      addSuccessToast(active ? `${user.username} can sign in again` : `${user.username} was deactivated`);
      await refresh();
    } catch (error) {
      toastError(error);
    }
  };

  const columns = useMemo<ColumnDef<UserView>[]>(
    () => [
      {
        id: 'first_name',
        header: 'Name',
        cell: ({ row }) => (
          <Text size="sm" fw={550}>
            {row.original.first_name} {row.original.last_name}
          </Text>
        ),
      },
      { id: 'username', header: 'Username', accessorKey: 'username' },
      { id: 'email', header: 'Email', accessorKey: 'email' },
      {
        id: 'roles',
        header: 'Roles',
        enableSorting: false,
        cell: ({ row }) => (
          <Group gap={4}>
            {row.original.roles.map((r) => (
              <Badge key={r.id} variant="light" radius="sm" size="sm" tt="none">
                {r.name}
              </Badge>
            ))}
          </Group>
        ),
      },
      {
        id: 'active',
        header: 'Status',
        cell: ({ row }) =>
          row.original.active ? (
            <Badge color="teal" variant="dot" tt="none">
              Active
            </Badge>
          ) : (
            <Badge color="gray" variant="dot" tt="none">
              Inactive
            </Badge>
          ),
      },
      {
        id: 'last_login',
        header: 'Last login',
        cell: ({ row }) => (
          <Text size="sm" c="dimmed">
            {row.original.last_login ? formatDateTime(row.original.last_login) : 'Never'}
          </Text>
        ),
      },
      actionsColumn((user) => (
        <>
          <RowAction label="Edit" ariaLabel={`Edit ${user.username}`} icon={<IconPencil size={16} />} onClick={() => setEditing({ user, key: Date.now() })} />
          {user.id !== me.userId && (
            <>
              <RowAction
                label={user.active ? 'Deactivate' : 'Activate'}
                ariaLabel={`${user.active ? 'Deactivate' : 'Activate'} ${user.username}`}
                icon={user.active ? <IconUserOff size={16} /> : <IconUserCheck size={16} />}
                onClick={() => void setActive(user, !user.active)}
              />
              {del.rowAction(user)}
            </>
          )}
        </>
      )),
    ],
    [me.userId, del.rowAction],
  );

  const bulkActions = useMemo<ListViewBulkAction<UserView>[]>(
    () => [
      {
        key: 'delete',
        label: 'Delete',
        color: 'red',
        onAction: (users) => {
          const others = users.filter((u) => u.id !== me.userId);
          if (others.length) del.confirm(others);
          else addWarningToast('You cannot delete yourself.');
        },
      },
    ],
    [me.userId, del.confirm],
  );

  return (
    <Container size="xl" py="xl">
      <PageHeader
        title="Users"
        description="People who can sign in to Meridian, and the roles that decide what they can do."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ user: null, key: Date.now() })}>
            Add user
          </Button>
        }
      />
      <ListView<UserView>
        label="Users"
        endpoint={ENDPOINT}
        columns={columns}
        filters={FILTERS}
        initialSort={{ id: 'username', desc: false }}
        bulkActions={bulkActions}
        emptyState={{ title: 'No users yet' }}
      />
      {editing && <UserFormModal key={editing.key} opened user={editing.user} onClose={() => setEditing(null)} onSaved={() => void refresh()} />}
      {del.modal}
    </Container>
  );
}
