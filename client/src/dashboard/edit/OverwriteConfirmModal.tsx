import { Button, Code, Group, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { CONFIRM_OVERWRITE } from '@meridian/contracts/messages';

export interface OverwriteDiff {
  field: string;
  server: string;
  mine: string;
}

const short = (text: string) => (text.length > 160 ? `${text.slice(0, 160)}…` : text);

/**
 * spec 02 §5: a save refused because the server copy is newer lists the fields that differ and asks
 * 'Please confirm the overwrite values.' Nothing is overwritten until the user confirms.
 */
export function OverwriteConfirmModal({ diffs, onConfirm, onCancel, saving }: { diffs: OverwriteDiff[] | null; onConfirm: () => void; onCancel: () => void; saving: boolean }) {
  return (
    <Modal opened={diffs !== null} onClose={onCancel} title="Confirm overwrite" size="lg">
      <Stack>
        <Text size="sm">Someone saved this dashboard after you opened it. {CONFIRM_OVERWRITE}</Text>
        <ScrollArea.Autosize mah={360}>
          <Table withTableBorder striped fz="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Saved by the other change</Table.Th>
                <Table.Th>Yours</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(diffs ?? []).map((d) => (
                <Table.Tr key={d.field}>
                  <Table.Td>
                    <Code>{d.field}</Code>
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{short(d.server)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{short(d.mine)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button color="red" onClick={onConfirm} loading={saving}>
            Overwrite
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
