import { Modal, NavLink, ScrollArea, Stack, TextInput } from '@mantine/core';
import { IconSearch, IconTable } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';

/** Choose another dataset for the chart; controls keep what still applies to it. */
export function SwapDatasetModal({ onClose, onSelect }: { onClose: () => void; onSelect: (id: number) => void }) {
  const [search, setSearch] = useState('');
  const list = useQuery({
    queryKey: ['swap-datasets', search],
    queryFn: async () =>
      (await api<{ result: Array<{ id: number; table_name: string; schema: string | null; database: { database_name: string } }> }>('/api/v1/dataset/', {
        query: { q: { columns: ['id', 'table_name', 'schema', 'database.database_name'], filters: search ? [{ col: 'table_name', opr: 'ct', value: search }] : [], order_column: 'table_name', order_direction: 'asc', page_size: 50 } },
      })).result,
  });
  return (
    <Modal opened onClose={onClose} title="Swap dataset" size="md">
      <Stack gap="xs">
        <TextInput placeholder="Search datasets" aria-label="Search datasets" leftSection={<IconSearch size={14} />} value={search} onChange={(e) => setSearch(e.currentTarget.value)} data-autofocus />
        <ScrollArea h={320}>
          {(list.data ?? []).map((d) => (
            <NavLink key={d.id} label={d.table_name} description={`${d.database?.database_name ?? ''}${d.schema ? ` · ${d.schema}` : ''}`} leftSection={<IconTable size={14} />} onClick={() => onSelect(d.id)} />
          ))}
        </ScrollArea>
      </Stack>
    </Modal>
  );
}
