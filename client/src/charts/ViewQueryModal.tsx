import { Button, Code, CopyButton, Group, Loader, Modal, ScrollArea, Stack, Switch } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { sqllabApi } from '../sqllab/sqllab.api';

/**
 * "View query": the SQL a chart runs, formatted as SQL Lab's "Format SQL" formats it (the server's sql-formatter, in the
 * engine's dialect when given), with a copy button and a switch back to the original (Explore's and the dashboard's
 * chart menus). When formatting fails (no SQL Lab permission, say) the original is shown. Long lines wrap.
 */
export function ViewQueryModal({ sql, engine, onClose }: { sql: string | null; engine?: string | null; onClose: () => void }) {
  const [original, setOriginal] = useState(false);
  const formatted = useQuery({
    queryKey: ['format-sql', sql, engine ?? null],
    queryFn: async () => (await sqllabApi.formatSql(sql ?? '', null, engine)).result,
    enabled: !!sql?.trim(),
    retry: false,
    staleTime: Infinity,
  });
  const shown = !original && formatted.data ? formatted.data : (sql ?? '');
  return (
    <Modal opened={sql !== null} onClose={onClose} title="View query" size="xl">
      <Stack>
        {formatted.isPending && !!sql?.trim() ? (
          <Loader size="sm" />
        ) : (
          <ScrollArea.Autosize mah="60vh" type="auto">
            <Code block data-testid="view-query-sql" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {shown}
            </Code>
          </ScrollArea.Autosize>
        )}
        <Group justify="flex-end">
          {formatted.data && <Switch size="xs" label="Show original SQL" checked={original} onChange={(e) => setOriginal(e.currentTarget.checked)} />}
          <CopyButton value={shown}>
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
