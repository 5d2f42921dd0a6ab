import { Alert, Badge, Center, Drawer, Group, Loader, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import type { RoleView } from '@meridian/contracts/schemas/security';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { errorOf, trpc } from '../trpc';

/** A role's permission-view pairs (GET the role for a fresh copy), grouped by view, with a search box. */
export function RolePermissionsDrawer({ role, onClose }: { role: RoleView | null; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const detail = useQuery({ ...trpc.role.get.queryOptions({ id: role?.id ?? 0 }), enabled: !!role });
  const permissions = detail.data?.permissions ?? role?.permissions ?? [];

  const groups = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const byView = new Map<string, string[]>();
    for (const p of permissions) {
      if (needle && !`${p.permission_name} ${p.view_menu_name}`.toLowerCase().includes(needle)) continue;
      byView.set(p.view_menu_name, [...(byView.get(p.view_menu_name) ?? []), p.permission_name]);
    }
    return [...byView.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [permissions, search]);

  return (
    <Drawer
      opened={!!role}
      onClose={() => {
        setSearch('');
        onClose();
      }}
      position="right"
      size="lg"
      title={
        <Group gap="sm" component="span">
          <span>{role?.name}</span>
          <Badge variant="light" color="gray" radius="sm" tt="none">
            {permissions.length} permissions
          </Badge>
        </Group>
      }
    >
      <Stack gap="md">
        <TextInput aria-label="Search permissions" placeholder="Search permissions" leftSection={<IconSearch size={15} />} value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
        {detail.isError && (
          <Alert color="red" variant="light">
            {errorOf(detail.error).error}
          </Alert>
        )}
        {detail.isPending && !permissions.length ? (
          <Center py="xl">
            <Loader size="sm" />
          </Center>
        ) : groups.length === 0 ? (
          <Text c="dimmed" size="sm" ta="center" py="xl">
            {permissions.length ? 'No permission matches your search.' : 'This role has no permissions.'}
          </Text>
        ) : (
          <ScrollArea.Autosize mah="calc(100dvh - 160px)">
            <Table aria-label="Permissions" verticalSpacing="xs" withRowBorders>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w="40%">View</Table.Th>
                  <Table.Th>Permissions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {groups.map(([view, perms]) => (
                  <Table.Tr key={view}>
                    <Table.Td>
                      <Text size="sm" fw={550}>
                        {view}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {perms.map((p) => (
                          <Badge key={p} variant="light" radius="sm" size="sm" tt="none">
                            {p}
                          </Badge>
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
    </Drawer>
  );
}
