import { Anchor, Badge, Button, Container, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { CANCEL } from '@meridian/contracts/messages';
import { isBuiltInRole, RoleNameSchema, type RoleView } from '@meridian/contracts/schemas/security';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState, type FormEvent } from 'react';
import { actionsColumn, ListView, listKey, RowAction, searchFilter, useDeleteAction, type ListViewFilter } from '../components/ListView';
import { serverFieldErrors } from '../components/form-fields';
import { PageHeader } from '../components/PageHeader';
import { addSuccessToast, toastError } from '../notify';
import { trpc } from '../trpc';
import { RoleEditorDrawer } from './RoleEditorDrawer';

const ENDPOINT = '/api/v1/security/roles/';
const FILTERS: ListViewFilter[] = [searchFilter('name', 'Search roles')];

/** Settings → Roles: each role with how many permissions and users it has; add, edit (name, permissions, users) and delete roles. */
export function RoleListScreen() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const remove = useMutation(trpc.role.delete.mutationOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: listKey(ENDPOINT) });
  const del = useDeleteAction<RoleView>({
    endpoint: ENDPOINT,
    noun: 'roles',
    nameOf: (r) => r.name,
    removeEach: (r) => remove.mutateAsync({ id: r.id }),
    deletedOne: (r) => `Deleted role ${r.name}`,
  });

  const columns = useMemo<ColumnDef<RoleView>[]>(
    () => [
      {
        id: 'name',
        header: 'Name',
        cell: ({ row }) => (
          <Group gap="xs" wrap="nowrap">
            <Anchor component="button" type="button" fw={600} size="sm" onClick={() => setOpen(row.original.id)}>
              {row.original.name}
            </Anchor>
            {isBuiltInRole(row.original.name) && (
              <Badge variant="light" radius="sm" size="xs" tt="none">
                Built-in
              </Badge>
            )}
          </Group>
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
      actionsColumn<RoleView>((role) => (
        <>
          <RowAction label="Edit" ariaLabel={`Edit ${role.name}`} icon={<IconPencil size={16} />} onClick={() => setOpen(role.id)} />
          {!isBuiltInRole(role.name) && del.rowAction(role)}
        </>
      )),
    ],
    [del],
  );
  return (
    <Container size="xl" py="xl">
      <PageHeader title="Roles" description="Roles group permissions; a user holds one or more roles." />
      <ListView<RoleView>
        label="Roles"
        endpoint={ENDPOINT}
        columns={columns}
        filters={FILTERS}
        initialSort={{ id: 'name', desc: false }}
        emptyState={{ title: 'No roles yet' }}
        toolbar={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            Add role
          </Button>
        }
      />
      <AddRoleModal
        opened={adding}
        onClose={() => setAdding(false)}
        onAdded={(id) => {
          void refresh();
          setOpen(id);
        }}
      />
      <RoleEditorDrawer roleId={open} onClose={() => setOpen(null)} onSaved={() => void refresh()} />
      {del.modal}
    </Container>
  );
}

function AddRoleModal({ opened, onClose, onAdded }: { opened: boolean; onClose: () => void; onAdded: (id: number) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useMutation(trpc.role.create.mutationOptions());
  const close = () => {
    setName('');
    setError(null);
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = RoleNameSchema.safeParse({ name });
    if (!parsed.success) {
      setError('Missing data for required field.');
      return;
    }
    try {
      const role = await create.mutateAsync(parsed.data);
      addSuccessToast(`Role ${role.name} added`);
      close();
      onAdded(role.id);
    } catch (e) {
      const fields = serverFieldErrors(e, { name });
      if (fields?.name) setError(fields.name);
      else toastError(e);
    }
  };
  return (
    <Modal opened={opened} onClose={close} title="Add role">
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Add role">
        <Stack gap="md">
          <TextInput label="Name" required value={name} error={error} maxLength={64} onChange={(e) => (setName(e.currentTarget.value), setError(null))} data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {CANCEL}
            </Button>
            <Button type="submit" loading={create.isPending}>
              Add
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
