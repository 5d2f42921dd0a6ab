import { Alert, Badge, Button, Center, Checkbox, Drawer, Group, Loader, MultiSelect, ScrollArea, Stack, Table, Tabs, Text, TextInput } from '@mantine/core';
import { isBuiltInRole, type RoleView } from '@meridian/contracts/schemas/security';
import { IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { serverFieldErrors } from '../components/form-fields';
import { addSuccessToast, toastError } from '../notify';
import { errorOf, trpc } from '../trpc';

/**
 * A role's editor: its name, its permissions (every permission on every resource, grouped by resource, ticked
 * when granted) and its users. Each part saves on its own; a change counts from the next request on.
 */
export function RoleEditorDrawer({ roleId, onClose, onSaved }: { roleId: number | null; onClose: () => void; onSaved: () => void }) {
  const role = useQuery({ ...trpc.role.get.queryOptions({ id: roleId ?? 0 }), enabled: roleId !== null });
  return (
    <Drawer opened={roleId !== null} onClose={onClose} position="right" size="xl" title={<RoleTitle role={role.data} />}>
      {role.isError ? (
        <Alert color="red" variant="light">
          {errorOf(role.error).error}
        </Alert>
      ) : !role.data ? (
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <RoleEditor key={role.data.id} role={role.data} onSaved={() => void role.refetch().then(onSaved)} />
      )}
    </Drawer>
  );
}

function RoleTitle({ role }: { role: RoleView | undefined }) {
  return (
    <Group gap="sm" component="span">
      <span>{role?.name ?? 'Role'}</span>
      {role && (
        <Badge variant="light" color="gray" radius="sm" tt="none">
          {role.permissions.length} permissions
        </Badge>
      )}
      {isBuiltInRole(role?.name) && (
        <Badge variant="light" radius="sm" tt="none">
          Built-in
        </Badge>
      )}
    </Group>
  );
}

function RoleEditor({ role, onSaved }: { role: RoleView; onSaved: () => void }) {
  const builtIn = isBuiltInRole(role.name);
  return (
    <Stack gap="md">
      {builtIn ? (
        <Alert variant="light" color="blue" icon={<IconInfoCircle size={16} />}>
          Meridian sets this built-in role's permissions at every start. To grant other permissions, add a role and give it to the users who need them.
        </Alert>
      ) : (
        <RoleName role={role} onSaved={onSaved} />
      )}
      <Tabs defaultValue="permissions" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="permissions">Permissions</Tabs.Tab>
          <Tabs.Tab value="users">Users ({role.user_ids.length})</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="permissions" pt="md">
          <RolePermissions role={role} readOnly={builtIn && role.name !== 'Public'} onSaved={onSaved} />
        </Tabs.Panel>
        <Tabs.Panel value="users" pt="md">
          <RoleUsers role={role} onSaved={onSaved} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function RoleName({ role, onSaved }: { role: RoleView; onSaved: () => void }) {
  const [name, setName] = useState(role.name);
  const [error, setError] = useState<string | null>(null);
  const rename = useMutation(trpc.role.rename.mutationOptions());
  const save = async () => {
    try {
      await rename.mutateAsync({ id: role.id, name: name.trim() });
      setError(null);
      addSuccessToast(`Role renamed to ${name.trim()}`);
      onSaved();
    } catch (e) {
      const fields = serverFieldErrors(e, { name });
      if (fields?.name) setError(fields.name);
      else toastError(e);
    }
  };
  return (
    <Group align="flex-end" gap="sm">
      <TextInput label="Name" value={name} error={error} onChange={(e) => setName(e.currentTarget.value)} style={{ flex: 1 }} maxLength={64} />
      <Button variant="default" onClick={() => void save()} loading={rename.isPending} disabled={!name.trim() || name.trim() === role.name}>
        Rename
      </Button>
    </Group>
  );
}

function RolePermissions({ role, readOnly, onSaved }: { role: RoleView; readOnly: boolean; onSaved: () => void }) {
  const all = useQuery(trpc.role.permissionViews.queryOptions({ page_size: -1, order_column: 'view_menu', order_direction: 'asc' }));
  const [selected, setSelected] = useState(() => new Set(role.permissions.map((p) => p.id)));
  const [search, setSearch] = useState('');
  const save = useMutation(trpc.role.setPermissions.mutationOptions());
  useEffect(() => setSelected(new Set(role.permissions.map((p) => p.id))), [role.permissions]);

  const groups = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const byView = new Map<string, { id: number; name: string }[]>();
    for (const pv of all.data?.result ?? []) {
      if (needle && !`${pv.permission.name} ${pv.view_menu.name}`.toLowerCase().includes(needle)) continue;
      byView.set(pv.view_menu.name, [...(byView.get(pv.view_menu.name) ?? []), { id: pv.id, name: pv.permission.name }]);
    }
    return [...byView.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [all.data, search]);

  const changed = selected.size !== role.permissions.length || role.permissions.some((p) => !selected.has(p.id));
  const toggle = (id: number, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const submit = async () => {
    try {
      await save.mutateAsync({ id: role.id, permissionViewIds: [...selected] });
      addSuccessToast(`Permissions of ${role.name} saved`);
      onSaved();
    } catch (e) {
      toastError(e);
    }
  };

  if (all.isError)
    return (
      <Alert color="red" variant="light">
        {errorOf(all.error).error}
      </Alert>
    );
  if (!all.data)
    return (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <TextInput aria-label="Search permissions" placeholder="Search permissions" leftSection={<IconSearch size={15} />} value={search} onChange={(e) => setSearch(e.currentTarget.value)} style={{ flex: 1 }} />
        {!readOnly && (
          <Button onClick={() => void submit()} loading={save.isPending} disabled={!changed}>
            Save permissions
          </Button>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {selected.size} of {all.data.count} permissions granted
      </Text>
      {groups.length === 0 ? (
        <Text c="dimmed" size="sm" ta="center" py="xl">
          No permission matches your search.
        </Text>
      ) : (
        <ScrollArea.Autosize mah="calc(100dvh - 300px)">
          <Table aria-label="Permissions" verticalSpacing={6} withRowBorders>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="35%">Resource</Table.Th>
                <Table.Th>Permissions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {groups.map(([view, perms]) => (
                <Table.Tr key={view}>
                  <Table.Td>
                    <Text size="sm" fw={550} style={{ wordBreak: 'break-word' }}>
                      {view}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="md">
                      {perms.map((p) => (
                        <Checkbox key={p.id} size="xs" label={p.name} aria-label={`${p.name} on ${view}`} checked={selected.has(p.id)} disabled={readOnly} onChange={(e) => toggle(p.id, e.currentTarget.checked)} />
                      ))}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

function RoleUsers({ role, onSaved }: { role: RoleView; onSaved: () => void }) {
  const users = useQuery(trpc.user.list.queryOptions({ page_size: 1000, order_column: 'username', order_direction: 'asc' }));
  const [value, setValue] = useState(() => role.user_ids.map(String));
  const save = useMutation(trpc.role.setUsers.mutationOptions());
  const changed = value.length !== role.user_ids.length || value.some((v) => !role.user_ids.includes(Number(v)));
  const submit = async () => {
    try {
      await save.mutateAsync({ id: role.id, userIds: value.map(Number) });
      addSuccessToast(`Users of ${role.name} saved`);
      onSaved();
    } catch (e) {
      toastError(e);
    }
  };
  const options = (users.data?.result ?? []).map((u) => ({ value: String(u.id), label: `${u.first_name} ${u.last_name} (${u.username})` }));
  return (
    <Stack gap="sm">
      <MultiSelect label="Users with this role" placeholder={value.length ? undefined : 'Nobody yet'} data={options} value={value} onChange={setValue} searchable clearable nothingFoundMessage="No user matches" disabled={!users.data} />
      <Group justify="flex-end">
        <Button onClick={() => void submit()} loading={save.isPending} disabled={!changed}>
          Save users
        </Button>
      </Group>
    </Stack>
  );
}
