import { Code, HoverCard, ScrollArea, Text } from '@mantine/core';

/** One line of SQL in a list cell; hovering shows the whole statement. */
export function SqlPreview({ sql, maxWidth = 360 }: { sql: string | null; maxWidth?: number }) {
  const text = (sql ?? '').trim();
  if (!text)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const oneLine = text.replace(/\s+/g, ' ');
  return (
    <HoverCard width={520} shadow="md" openDelay={250} position="bottom-start" withinPortal>
      <HoverCard.Target>
        <Text
          component="code"
          size="xs"
          ff="monospace"
          c="dimmed"
          style={{ display: 'block', maxWidth, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          {oneLine}
        </Text>
      </HoverCard.Target>
      <HoverCard.Dropdown p={0}>
        <ScrollArea.Autosize mah={320} type="auto">
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', background: 'transparent' }} fz="xs" p="sm">
            {text}
          </Code>
        </ScrollArea.Autosize>
      </HoverCard.Dropdown>
    </HoverCard>
  );
}
