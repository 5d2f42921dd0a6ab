import { Badge, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useSessionUser } from '../auth/session';

/** The user menu's "Info": who is signed in and with which roles. */
export function UserInfoModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const user = useSessionUser();
  const rows: [string, string][] = [
    ['Username', user.username],
    ['First name', user.firstName],
    ['Last name', user.lastName],
    ['Email', user.email],
  ];
  return (
    <Modal opened={opened} onClose={onClose} title="User info" size="md">
      <Stack gap="md">
        <Table variant="vertical" layout="fixed" withTableBorder>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={140}>{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Th>Roles</Table.Th>
              <Table.Td>
                <Group gap={6}>
                  {Object.keys(user.roles).map((role) => (
                    <Badge key={role} variant="light" radius="sm">
                      {role}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Stack>
    </Modal>
  );
}
