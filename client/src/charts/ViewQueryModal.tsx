import { Button, Code, CopyButton, Group, Modal, ScrollArea, Stack } from '@mantine/core';

/** "View query": the SQL a chart runs, with a copy button (Explore's and the dashboard's chart menus). */
export function ViewQueryModal({ sql, onClose }: { sql: string | null; onClose: () => void }) {
  return (
    <Modal opened={sql !== null} onClose={onClose} title="View query" size="xl">
      <Stack>
        <ScrollArea.Autosize mah="60vh">
          <Code block data-testid="view-query-sql">
            {sql}
          </Code>
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          <CopyButton value={sql ?? ''}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy}>
                {copied ? 'Copied!' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Modal>
  );
}
